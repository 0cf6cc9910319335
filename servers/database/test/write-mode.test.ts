import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resultText, type TestClient } from '@mcpkit/server-kit/testing';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFixture, startClient, type Transport } from './fixtures.js';

describe.each<Transport>(['memory', 'stdio'])('write mode (%s)', (transport) => {
  let fixture: ReturnType<typeof makeFixture>;
  let answer: 'accept' | 'refuse' | 'decline';
  let asked: string[];
  let client: TestClient;
  const count = (table: string) => {
    const db = new Database(fixture.file, { readonly: true });
    const rows = db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    db.close();
    return rows;
  };

  beforeEach(async () => {
    fixture = makeFixture();
    answer = 'accept';
    asked = [];
    client = await startClient(
      transport,
      { file: fixture.file, allowWrite: true },
      {
        onElicit: (params) => {
          asked.push(params.message);
          if (answer === 'decline') return { action: 'decline' };
          return { action: 'accept', content: { confirm: answer === 'accept' } };
        },
      },
    );
  });
  afterEach(async () => {
    await client.close();
    fixture.cleanup();
  });

  it('offers execute, marked destructive', async () => {
    const { tools } = await client.client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'execute');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('inserts with bound parameters and reports the change and the row id, without asking', async () => {
    const result = await client.callTool('execute', {
      sql: 'INSERT INTO users (full_name, email, role, created_at) VALUES (?, ?, ?, ?)',
      params: ['Frances Allen', 'frances.allen@example.com', 'engineer', '2025-01-01T00:00:00Z'],
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ changes: 1, lastInsertRowid: 9 });
    expect(resultText(result)).toMatch(/1 row changed; last inserted row id 9\.$/);
    expect(asked).toEqual([]);
    expect(count('users')).toBe(9);
  });

  it('returns RETURNING rows and updates with WHERE without asking', async () => {
    const result = await client.callTool('execute', {
      sql: "UPDATE products SET price = price * 2 WHERE category = 'office' RETURNING name",
    });
    expect(result.structuredContent).toMatchObject({ changes: 3, columns: ['name'] });
    expect(resultText(result)).toContain('| Standing desk |');
    expect(asked).toEqual([]);
  });

  it('asks before DELETE without WHERE, and does nothing when the user declines', async () => {
    answer = 'decline';
    const result = await client.callTool('execute', { sql: 'DELETE FROM orders' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      'The user did not confirm the statement (DELETE without WHERE removes every row of the table), so it was not run.',
    );
    expect(asked[0]).toContain('DELETE FROM orders');
    expect(count('orders')).toBe(40);
  });

  it('does nothing when the user answers the form without confirming, and runs when they confirm', async () => {
    answer = 'refuse';
    expect((await client.callTool('execute', { sql: 'DROP TABLE orders' })).isError).toBe(true);
    expect(count('orders')).toBe(40);
    answer = 'accept';
    const dropped = await client.callTool('execute', { sql: 'DROP TABLE orders' });
    expect(dropped.isError).toBeFalsy();
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain('DROP TABLE deletes the object and all its data');
    expect((await client.callTool('query', { sql: 'SELECT * FROM orders' })).isError).toBe(true);
  });

  it('keeps query read-only on a writable server', async () => {
    const result = await client.callTool('query', { sql: 'DELETE FROM users RETURNING *' });
    expect(result.isError).toBe(true);
    expect(count('users')).toBe(8);
  });

  it.each([
    ["ATTACH DATABASE 'other.sqlite' AS other", /ATTACH is refused/],
    ["VACUUM INTO 'copy.sqlite'", /VACUUM INTO is refused/],
    ['PRAGMA foreign_keys = OFF', /settings are fixed/],
    ['BEGIN', /BEGIN is refused/],
    ['DELETE FROM orders; DROP TABLE users', /more than one statement/],
    ["SELECT load_extension('x')", /load_extension\(\) is refused/],
  ])('refuses %s even with writes allowed', async (sql, message) => {
    const result = await client.callTool('execute', { sql });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(message);
    expect(count('orders')).toBe(40);
    expect(existsSync(join(fixture.directory, 'copy.sqlite'))).toBe(false);
  });

  it('reports a constraint failure as a readable error', async () => {
    const result = await client.callTool('execute', {
      sql: 'INSERT INTO orders (customer_id, product_id, quantity, ordered_at) VALUES (99, 1, 1, 1)',
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/FOREIGN KEY constraint failed/);
  });
});

describe('write mode without elicitation', () => {
  it('runs a destructive statement when the client cannot ask the user (the flag is the permission)', async () => {
    const fixture = makeFixture();
    try {
      await using client = await startClient('memory', { file: fixture.file, allowWrite: true });
      const result = await client.callTool('execute', { sql: 'DELETE FROM orders' });
      expect(result.structuredContent).toMatchObject({ changes: 40 });
    } finally {
      fixture.cleanup();
    }
  });
});
