import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultText, type TestClient } from '@mcpkit/server-kit/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellValue } from '../src/engines/engine.js';
import { rowsTable } from '../src/result-text.js';
import { makeFixture, startClient, type Transport } from './fixtures.js';

describe.each<Transport>(['memory', 'stdio'])('SQLite specifics (%s)', (transport) => {
  const fixture = makeFixture();
  let client: TestClient;
  const checksum = () => {
    const db = new Database(fixture.file, { readonly: true });
    const value = db.prepare("SELECT group_concat(name || ':' || sql) FROM sqlite_schema").pluck().get() as string;
    const users = db.prepare('SELECT group_concat(full_name) FROM users').pluck().get() as string;
    db.close();
    return `${value}|${users}|${readFileSync(fixture.file).length}`;
  };
  let before: string;

  beforeAll(async () => {
    before = checksum();
    // A time limit of 5 s: every call here, a worker's start included, must finish within it on a loaded machine.
    client = await startClient(transport, { file: fixture.file, limits: { maxRows: 100, timeoutMs: 5000 } });
  });
  afterAll(async () => {
    await client?.close();
    fixture.cleanup();
  });

  it('binds positional and named parameters', async () => {
    const positional = await client.callTool('query', { sql: 'SELECT full_name FROM users WHERE id = ?', params: [2] });
    expect((positional.structuredContent as { rows: unknown[][] }).rows).toEqual([['Grace Hopper']]);
    const named = await client.callTool('query', {
      sql: 'SELECT count(*) AS n FROM users WHERE role = :role',
      params: { ':role': 'engineer' },
    });
    expect((named.structuredContent as { rows: unknown[][] }).rows).toEqual([[3]]);
    const missing = await client.callTool('query', { sql: 'SELECT ? + ?', params: [1] });
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toMatch(/parameters/i);
  });

  it('gives the position of a syntax error', async () => {
    const result = await client.callTool('query', { sql: 'SELECT id\nFROM users\nWHER id = 1' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(
      /syntax error near "id" at line 3, column 6 \(SQLite: near "id": syntax error\)/,
    );
  });

  it('cuts at the row cap, says how many rows exist and how to get more', async () => {
    const result = await client.callTool('query', { sql: 'SELECT * FROM numbers', max_rows: 10 });
    expect(result.structuredContent).toMatchObject({ rowCount: 10, truncated: 'row_cap', totalRows: 2000 });
    const text = resultText(result);
    expect(text).toContain('[truncated: showed 10 rows of 2,000 rows (row cap 10).');
    expect(text).toContain('pass max_rows up to 100');
    expect(text).toContain('LIMIT 10 OFFSET 10');
    const capped = await client.callTool('query', { sql: 'SELECT * FROM numbers' });
    expect(capped.structuredContent).toMatchObject({ rowCount: 100, truncated: 'row_cap' });
    const over = await client.callTool('query', { sql: 'SELECT 1', max_rows: 101 });
    expect(over.isError).toBe(true);
  });

  it('holds the whole result, structured content included, to the size budget, with the same rows in both', async () => {
    const wideRow = Array.from({ length: 500 }, (_, index) => `printf('%.2000c', 'w') AS c${index}`).join(', ');
    const manyRows = "SELECT n, printf('%.1000c', 'y') AS filler FROM numbers";
    for (const sql of [`SELECT ${wideRow}`, manyRows]) {
      const result = await client.callTool('query', { sql });
      expect(result.isError).toBeFalsy();
      const text = resultText(result);
      expect(text.length + JSON.stringify(result.structuredContent).length).toBeLessThanOrEqual(100_000);
      const structured = result.structuredContent as { columns: string[]; rows: CellValue[][]; rowCount: number };
      expect(structured.rows.length).toBeGreaterThan(0);
      expect(structured.rowCount).toBe(structured.rows.length);
      // The text shows exactly the rows of the structured content, in full, and says what was cut.
      expect(text).toContain(`<rows>\n${rowsTable(structured.columns, structured.rows)}\n</rows>`);
      expect(text).toMatch(/to stay within the size budget|long text values? shortened/);
    }
  });

  it('explains a query without running it', async () => {
    const result = await client.callTool('explain_query', {
      sql: 'SELECT * FROM orders WHERE customer_id = ?',
      params: [1],
    });
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toMatch(/SEARCH orders USING INDEX orders_customer/);
    const refused = await client.callTool('explain_query', { sql: 'DELETE FROM users' });
    expect(refused.isError).toBe(true);
  });

  it('kills the workers when the client cancels calls, so the next call does not wait for their deadline', async () => {
    // Three runaway calls fill the pool of three workers; only killing them frees a worker before the deadline.
    const controllers = [0, 1, 2].map(() => new AbortController());
    const calls = controllers.map((controller) =>
      client.client.callTool(
        {
          name: 'query',
          arguments: { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c' },
        },
        undefined,
        { signal: controller.signal },
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cancelledAt = performance.now();
    for (const controller of controllers) controller.abort();
    for (const call of calls) await expect(call).rejects.toThrow();
    const next = await client.callTool('query', { sql: 'SELECT 1 AS one' });
    expect(next.isError).toBeFalsy();
    // Without the kill the next call would wait for the 5,000 ms deadline of the runaway calls (4.8 s from here);
    // with it, killing three workers, starting one and a SELECT get 3 s (they had 1.25 s of a 1.5 s deadline).
    expect(performance.now() - cancelledAt).toBeLessThan(3000);
  });

  describe('read-only rules, enforced by SQLite and checked again', () => {
    const refusals: [string, string, RegExp][] = [
      ['a second statement', 'SELECT 1; DROP TABLE users', /more than one statement/],
      ['a second statement after a comment', 'SELECT 1 /* ; */; DELETE FROM users', /more than one statement/],
      ['a second statement after a string', "SELECT ';'; DELETE FROM users", /more than one statement/],
      [
        'a write',
        "INSERT INTO users (full_name, email, role, created_at) VALUES ('x', 'x', 'admin', 'x')",
        /would change the database/,
      ],
      ['a write with RETURNING', 'DELETE FROM users RETURNING *', /would change the database/],
      ['DROP', 'DROP TABLE users', /would change the database/],
      ['a temporary table', 'CREATE TEMP TABLE t AS SELECT * FROM users', /would change the database/],
      ['ATTACH', "ATTACH DATABASE 'other.sqlite' AS other", /ATTACH is refused/],
      ['ATTACH in lower case behind a comment', "/* hi */ attach 'x.sqlite' as x", /ATTACH is refused/],
      ['DETACH', 'DETACH DATABASE main', /DETACH is refused/],
      ['VACUUM INTO', "VACUUM INTO 'copy.sqlite'", /VACUUM INTO is refused/],
      ['PRAGMA query_only = OFF', 'PRAGMA query_only = OFF', /connection settings are fixed/],
      ['PRAGMA writable_schema', 'PRAGMA writable_schema = 1', /connection settings are fixed/],
      ['PRAGMA locking_mode', 'PRAGMA main.locking_mode = EXCLUSIVE', /connection settings are fixed/],
      ['PRAGMA with a call form', 'PRAGMA busy_timeout(1)', /only schema pragmas/],
      ['load_extension', "SELECT load_extension('/tmp/evil.so')", /load_extension\(\) is refused/],
      ['BEGIN', 'BEGIN IMMEDIATE', /BEGIN is refused/],
      ['REINDEX', 'REINDEX', /would change the database/],
      ['a schema write even when the engine calls it read-only', 'PRAGMA cache_size = 10', /settings are fixed/],
      ['a statement that returns no rows', 'PRAGMA shrink_memory', /returns none/],
    ];
    it.each(refusals)('refuses %s', async (_name, sql, message) => {
      const result = await client.callTool('query', { sql });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toMatch(message);
    });

    it('allows a schema pragma and a trailing comment', async () => {
      const pragma = await client.callTool('query', { sql: "PRAGMA table_info('users')" });
      expect(pragma.isError).toBeFalsy();
      const trailing = await client.callTool('query', { sql: 'SELECT 1; -- done' });
      expect(trailing.isError).toBeFalsy();
    });

    it('changed nothing and created no file, whatever was tried', () => {
      expect(checksum()).toBe(before);
      for (const name of ['other.sqlite', 'x.sqlite', 'copy.sqlite']) {
        expect(existsSync(join(fixture.directory, name))).toBe(false);
        expect(existsSync(name)).toBe(false);
      }
    });
  });
});
