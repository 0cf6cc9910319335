import { existsSync } from 'node:fs';
import { resultText, spawnTestClient, type TestClient } from '@mcpkit/server-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabaseServer } from '../src/server.js';
import { binPath, connectOwning } from './fixtures.js';
import { fingerprint, seedPostgres } from './postgres-fixture.js';

const url = inject('postgresUrl');
const readerUrl = inject('postgresReaderUrl');
const skipReason = inject('postgresSkipReason');
if (!url) process.stderr.write(`Skipping the PostgreSQL tests: ${skipReason}\n`);

async function memoryClient(
  options: { url: string; allowWrite?: boolean; timeoutMs?: number; maxRows?: number },
  onElicit?: () => { action: 'decline' },
) {
  const server = await createDatabaseServer({
    file: options.url,
    allowWrite: options.allowWrite ?? false,
    limits: { timeoutMs: options.timeoutMs ?? 1500, maxRows: options.maxRows ?? 100 },
    logLevel: 'emergency',
  });
  return connectOwning(server, onElicit ? { onElicit } : {});
}

describe.skipIf(!url)('database server on PostgreSQL', () => {
  let client: TestClient;
  beforeAll(async () => {
    await seedPostgres(url);
    client = await memoryClient({ url });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists tables and views with schemas and estimates', async () => {
    const result = await client.callTool('list_tables');
    const { tables } = result.structuredContent as {
      tables: { schema: string; name: string; type: string; rows: number | null }[];
    };
    expect(tables.map((table) => `${table.schema}.${table.name}`)).toEqual([
      'public.big_orders',
      'public.customers',
      'public.files',
      'public.numbers',
      'public.orders',
      'public.secrets',
      'public.users',
      'sales.invoices',
    ]);
    expect(tables.find((table) => table.name === 'numbers')?.rows).toBe(2000);
    expect(resultText(result)).toContain('- public.users (table, ~4 rows)');
  });

  it('names tables outside public with their schema in resources and completion', async () => {
    const { resources } = await client.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(
      expect.arrayContaining(['database://tables/users', 'database://tables/sales.invoices']),
    );
    const invoices = await client.client.readResource({ uri: 'database://tables/sales.invoices' });
    expect((invoices.contents[0] as { text: string }).text).toContain('- total: numeric(10,2)');
    const completion = await client.client.complete({
      ref: { type: 'ref/resource', uri: 'database://tables/{name}' },
      argument: { name: 'name', value: 'sa' },
    });
    expect(completion.completion.values).toEqual(['sales.invoices']);
  });

  it('describes a table from the catalog, by name or schema.name, case-insensitively', async () => {
    const text = await client.callToolText('describe_table', { table: 'public.ORDERS' });
    expect(text).toContain('Table orders (schema public)');
    expect(text).toContain('- id: integer, primary key, not null, default nextval(');
    expect(text).toContain("- status: text, not null, default 'placed'::text");
    expect(text).toContain('- (customer_id) references customers(id), on delete cascade');
    expect(text).toContain('- orders_customer on (customer_id)');
    const hostile = await client.callTool('describe_table', { table: "users'; DROP TABLE users; --" });
    expect(hostile.isError).toBe(true);
    expect(resultText(hostile)).toContain('There is no table or view named');
  });

  it('shows all users, binds $1 parameters, and refuses named parameters with a sentence', async () => {
    const all = await client.callTool('query', { sql: 'SELECT full_name, email FROM users ORDER BY id' });
    expect(all.structuredContent).toMatchObject({ columns: ['full_name', 'email'], rowCount: 4, totalRows: 4 });
    expect(resultText(all)).toContain('| Ada Lovelace | ada.lovelace@example.com |');
    const one = await client.callTool('query', { sql: 'SELECT full_name FROM users WHERE id = $1', params: [2] });
    expect((one.structuredContent as { rows: unknown[][] }).rows).toEqual([['Grace Hopper']]);
    const named = await client.callTool('query', { sql: 'SELECT 1', params: { a: 1 } });
    expect(resultText(named)).toBe('PostgreSQL takes positional placeholders ($1, $2, ...): pass params as an array.');
  });

  it('names a missing table and gives the position of an error in the statement as written', async () => {
    const missing = await client.callTool('query', { sql: 'SELECT * FROM employees' });
    expect(resultText(missing)).toBe(
      'The table "employees" does not exist at line 1, column 15 (PostgreSQL: relation "employees" does not exist). Call list_tables to see the tables there are.',
    );
    const trailing = await client.callTool('query', { sql: 'SELECT nope FROM users;' });
    expect(resultText(trailing)).toMatch(/^column "nope" does not exist at line 1, column 8\./);
    const syntax = await client.callTool('query', { sql: 'SELECT id\nFROM users\nWHER id = 1' });
    expect(resultText(syntax)).toMatch(
      /^The SQL has a syntax error at line 3, column 6 \(PostgreSQL: syntax error at or near "id"\)\.$/,
    );
  });

  it('stops a runaway statement at its deadline while another call answers, and the pool stays healthy', async () => {
    const started = performance.now();
    const slow = client.callTool('query', { sql: 'SELECT pg_sleep(30)' });
    const quick = await client.callTool('query', { sql: 'SELECT count(*)::int FROM users' });
    expect((quick.structuredContent as { rows: unknown[][] }).rows).toEqual([[4]]);
    const stopped = await slow;
    const elapsed = performance.now() - started;
    expect(resultText(stopped)).toMatch(/stopped at its time limit of 1,500 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(6000);
    for (let index = 0; index < 6; index += 1) {
      const again = await client.callTool('query', { sql: 'SELECT 1 AS one' });
      expect(again.isError).toBeFalsy();
    }
  });

  it('cancels the statement on the server when the client cancels the call', async () => {
    // A time limit of 10 s of its own. With the suite's 1.5 s (counted from the call, before the statement is seen
    // running), the deadline alone ended it 1.54 s after the cancel, so the cancel and the polls below, each a new
    // connection, had to be done within 1.4 s on a loaded machine; now they get 5 s, and the deadline alone 10 s.
    await using patient = await memoryClient({ url, timeoutMs: 10_000 });
    const controller = new AbortController();
    const call = patient.client.callTool({ name: 'query', arguments: { sql: 'SELECT pg_sleep(20)' } }, undefined, {
      signal: controller.signal,
    });
    const running = async () => {
      const watcher = new pg.Client(url);
      await watcher.connect();
      const { rows } = await watcher.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep(20)%' AND pid <> pg_backend_pid()",
      );
      await watcher.end();
      return (rows[0] as { n: number }).n;
    };
    await expect.poll(running, { timeout: 5000, interval: 50 }).toBe(1);
    const cancelledAt = performance.now();
    controller.abort();
    await expect(call).rejects.toThrow();
    // Gone well before the 10 s deadline would have stopped it.
    await expect.poll(running, { timeout: 5000, interval: 50 }).toBe(0);
    expect(performance.now() - cancelledAt).toBeLessThan(5000);
    expect((await patient.callTool('query', { sql: 'SELECT 1 AS one' })).isError).toBeFalsy();
  });

  describe('read-only rules: every attempt leaves the data unchanged', () => {
    let before: string;
    beforeAll(async () => {
      before = await fingerprint(url);
    });
    const attempts: [string, string][] = [
      ['a second statement', 'SELECT 1; DELETE FROM users'],
      ['COMMIT then DROP (the archived server’s escape)', 'COMMIT; DROP TABLE users'],
      ['a second statement after a comment', 'SELECT 1 /* ; */ ; DROP TABLE users'],
      ['a second statement after dollar quoting', 'SELECT $$;$$; DROP TABLE users'],
      ['a write', 'DELETE FROM users'],
      ['a write in odd case and spacing', '  dElEtE\n\tFROM   users'],
      ['a write inside a CTE', 'WITH gone AS (DELETE FROM users RETURNING *) SELECT * FROM gone'],
      ['SELECT INTO', 'SELECT * INTO stolen FROM users'],
      ['EXPLAIN ANALYZE of a write', 'EXPLAIN ANALYZE DELETE FROM users'],
      ['EXPLAIN (ANALYZE) of a write', 'explain (analyze, costs off) delete from users'],
      ['COPY TO PROGRAM', "COPY users TO PROGRAM 'touch /tmp/mcpkit-pwned'"],
      ['pg_read_file', "SELECT pg_read_file('/etc/passwd')"],
      ['a quoted, schema-qualified pg_read_file', 'SELECT pg_catalog."PG_READ_FILE"(\'/etc/passwd\')'],
      ['lo_export', "SELECT lo_export(lo_from_bytea(0, 'x'), '/tmp/mcpkit-pwned')"],
      ['dblink', "SELECT * FROM dblink('dbname=postgres', 'DELETE FROM users') AS t(x int)"],
      ['pg_terminate_backend', 'SELECT pg_terminate_backend(pg_backend_pid())'],
      ['set_config of the read-only setting', "SELECT set_config('transaction_read_only', 'off', true)"],
      ['SET of the read-only setting', 'SET transaction_read_only = off'],
      ['SET SESSION CHARACTERISTICS', 'set session characteristics as transaction read write'],
      ['nextval', "SELECT nextval('users_id_seq')"],
      ['an advisory lock', 'SELECT pg_advisory_lock(42)'],
      ['an advisory lock in a subquery', 'SELECT * FROM (SELECT PG_TRY_ADVISORY_LOCK (42)) AS t'],
      [
        'query_to_xml running a hidden statement',
        "SELECT query_to_xml('select nextval(''users_id_seq'')', true, true, '')",
      ],
      ['a row lock', 'SELECT * FROM users FOR UPDATE'],
      ['DO', 'DO $$ BEGIN DELETE FROM users; END $$'],
      ['CREATE TABLE', 'CREATE TABLE stolen (x int)'],
      ['BEGIN', 'BEGIN'],
    ];
    it.each(attempts)('refuses %s', async (_name, sql) => {
      const result = await client.callTool('query', { sql });
      expect(result.isError).toBe(true);
      expect(resultText(result).length).toBeGreaterThan(10);
    });

    it('is stopped by the READ ONLY transaction when the rules cannot see the write (inside a function)', async () => {
      const result = await client.callTool('query', { sql: 'SELECT sneaky_cleanup()' });
      expect(resultText(result)).toBe(
        'The statement would change the database, and this server only reads (PostgreSQL: cannot execute DELETE in a read-only transaction).',
      );
    });

    it('reads a dollar-quoted string that looks like a second statement as a string', async () => {
      const result = await client.callTool('query', { sql: 'SELECT $tag$ ; DROP TABLE users $tag$ AS text' });
      expect((result.structuredContent as { rows: unknown[][] }).rows).toEqual([[' ; DROP TABLE users ']]);
    });

    it('left users, orders, the sequence, the relations, the locks and the file system as they were', async () => {
      expect(await fingerprint(url)).toBe(before);
      expect(existsSync('/tmp/mcpkit-pwned')).toBe(false);
    });
  });

  it('with the recommended role, reads granted tables and says clearly when a table is not granted', async () => {
    await using reader = await memoryClient({ url: readerUrl });
    const granted = await reader.callTool('query', { sql: 'SELECT count(*)::int FROM users' });
    expect((granted.structuredContent as { rows: unknown[][] }).rows).toEqual([[4]]);
    const denied = await reader.callTool('query', { sql: 'SELECT * FROM secrets' });
    expect(resultText(denied)).toBe(
      'The database role may not do this (PostgreSQL: permission denied for table secrets).',
    );
  });

  it('writes with --allow-write, and asks before DELETE without WHERE', async () => {
    await using writer = await memoryClient({ url, allowWrite: true }, () => ({ action: 'decline' }));
    const inserted = await writer.callTool('execute', {
      sql: 'INSERT INTO customers (name) VALUES ($1) RETURNING id',
      params: ['Fabrikam'],
    });
    expect(inserted.structuredContent).toMatchObject({ changes: 1, columns: ['id'], rows: [[3]] });
    const declined = await writer.callTool('execute', { sql: 'DELETE FROM orders' });
    expect(resultText(declined)).toContain('The user did not confirm the statement');
    const count = await writer.callTool('query', { sql: 'SELECT count(*)::int FROM orders' });
    expect((count.structuredContent as { rows: unknown[][] }).rows).toEqual([[40]]);
    const copy = await writer.callTool('execute', { sql: "COPY users TO PROGRAM 'touch /tmp/mcpkit-pwned'" });
    expect(resultText(copy)).toMatch(/^COPY is refused/);
  });

  it('reports connection failures in one sentence without the password', async () => {
    const parsed = new URL(url);
    const wrong = `postgres://mcpkit:not-the-password-123@127.0.0.1:${parsed.port}/mcpkit_test`;
    await expect(createDatabaseServer({ file: wrong })).rejects.toThrow(
      /^PostgreSQL at 127\.0\.0\.1:\d+ refused the login of user "mcpkit": password authentication failed for user "mcpkit"\.$/,
    );
    const missing = url.replace(/\/mcpkit_test$/, '/nowhere');
    await expect(createDatabaseServer({ file: missing })).rejects.toThrow(
      /^The database "nowhere" does not exist on 127\.0\.0\.1:\d+\.$/,
    );
    await expect(createDatabaseServer({ file: 'postgres://someone:secret-pass@127.0.0.1:1/db' })).rejects.toThrow(
      /^Cannot connect to PostgreSQL at 127\.0\.0\.1:1: the connection was refused/,
    );
    const error = await createDatabaseServer({ file: wrong }).catch((caught: unknown) => caught);
    expect(String(error)).not.toContain('not-the-password-123');
  });

  it('answers calls with a clear sentence when the database goes away, and recovers its pool after lost connections', async () => {
    const admin = new pg.Client(url);
    await admin.connect();
    try {
      await admin.query('DROP DATABASE IF EXISTS mcpkit_gone');
      await admin.query('CREATE DATABASE mcpkit_gone');
      const goneUrl = url.replace(/\/mcpkit_test$/, '/mcpkit_gone');
      await using gone = await memoryClient({ url: goneUrl });
      expect((await gone.callTool('query', { sql: 'SELECT 1' })).isError).toBeFalsy();
      // Lost connections: the pool drops them and opens new ones.
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'mcpkit_gone'");
      await expect
        .poll(async () => (await gone.callTool('query', { sql: 'SELECT 2 AS two' })).isError, { timeout: 10_000 })
        .toBeFalsy();
      await admin.query('DROP DATABASE mcpkit_gone WITH (FORCE)');
      const result = await gone.callTool('query', { sql: 'SELECT 1' });
      expect(resultText(result)).toMatch(/^The database "mcpkit_gone" does not exist on 127\.0\.0\.1:\d+\.$/);
    } finally {
      await admin.end();
    }
  });

  it('serves PostgreSQL from the bin over stdio, selected by the URL', async () => {
    const spawned = await spawnTestClient({
      command: process.execPath,
      args: [binPath, url, '--log-level', 'emergency'],
    });
    try {
      const text = await spawned.callToolText('query', {
        sql: 'SELECT full_name FROM users WHERE id = $1',
        params: [1],
      });
      expect(text).toContain('| Ada Lovelace |');
      expect(spawned.client.getInstructions()).toContain('The PostgreSQL database postgres://mcpkit@127.0.0.1:');
      expect(spawned.client.getInstructions()).not.toContain('mcpkit-test-password');
    } finally {
      await spawned.close();
    }
  });
});
