import { resultText, type TestClient } from '@mcpkit/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseServer } from '../src/server.js';
import { connectOwning, makeFixture } from './fixtures.js';

/**
 * An error result is not cut by the result budget, so a statement whose error quotes a value it built (or a huge
 * statement) must still get one short sentence.
 */
describe('error sentences stay short whatever the statement', () => {
  const fixture = makeFixture();
  let reader: TestClient;
  let writer: TestClient;

  beforeAll(async () => {
    const limits = { timeoutMs: 10_000 };
    reader = await connectOwning(await createDatabaseServer({ file: fixture.file, logLevel: 'emergency', limits }));
    writer = await connectOwning(
      await createDatabaseServer({ file: fixture.file, allowWrite: true, logLevel: 'emergency', limits }),
    );
  });
  afterAll(async () => {
    await reader?.close();
    await writer?.close();
    fixture.cleanup();
  });

  it('quotes the head of an error message SQLite built from a huge value (a JSON path of a million characters)', async () => {
    const result = await reader.callTool('query', {
      sql: "SELECT json_extract('{}', printf('%.*c', 1000000, 'x')) AS value",
    });
    expect(result.isError).toBe(true);
    const text = resultText(result);
    expect(text).toMatch(/^SQLite refused the statement: bad JSON path: 'xxx/);
    expect(text).toContain('more characters]');
    expect(text.length).toBeLessThan(2_100);
  });

  it('keeps a refusal that names a long word of the statement short', async () => {
    const result = await reader.callTool('query', { sql: `PRAGMA ${'a'.repeat(90_000)} = 1` });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^PRAGMA a+/);
    // The rule quotes the name by its head (the worker would cut a longer sentence to 2,000 characters anyway).
    expect(resultText(result)).toContain(`PRAGMA ${'a'.repeat(500)}... [89,500 more characters] = ... is refused`);
    expect(resultText(result).length).toBeLessThan(1_400);
  });

  it.each([
    ['query', () => reader],
    ['explain_query', () => reader],
    ['execute', () => writer],
  ])('%s refuses a statement over 100,000 characters before any rule reads it', async (tool, client) => {
    const result = await client().callTool(tool, { sql: `SELECT ${'1,'.repeat(60_000)}1` });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/The statement is longer than 100,000 characters: put values in params/);
  });

  it.each([
    ['an array', Array.from({ length: 40_000 }, () => 1)],
    ['an object', Object.fromEntries(Array.from({ length: 40_000 }, (_, index) => [`k${index}`, 1]))],
  ])('refuses params of more than 32,766 values in %s before checking each', async (_name, params) => {
    const result = await reader.callTool('query', { sql: 'SELECT :k1', params });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/params: params must be an array .* of at most 32,766 strings, numbers/);
  });

  it('quotes the head of a table name it cannot find, however long the name sent', async () => {
    const table = 'x'.repeat(200_000);
    const result = await reader.callTool('describe_table', { table });
    expect(resultText(result)).toMatch(
      /^There is no table or view named "x+\.\.\. \[199,500 more characters\]"\. Call list_tables/,
    );
    await expect(reader.client.readResource({ uri: `database://tables/${table}` })).rejects.toThrow(
      /more characters\]"\.$/,
    );
  });

  it('answers a table resource URI with a malformed escape with a sentence, not an internal error', async () => {
    await expect(reader.client.readResource({ uri: 'database://tables/%E0%A4%A' })).rejects.toThrow(
      /The table name in the URI is not valid percent-encoding/,
    );
  });
});
