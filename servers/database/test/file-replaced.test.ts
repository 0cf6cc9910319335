import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText, type TestClient } from '@mcpkit/server-kit/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseServer } from '../src/server.js';
import { connectOwning } from './fixtures.js';

function databaseSaying(file: string, word: string): void {
  const db = new Database(file);
  db.exec('CREATE TABLE t (word TEXT)');
  db.prepare('INSERT INTO t VALUES (?)').run(word);
  db.close();
}

/** Another process replaces or removes the file while the server runs: every call reads what is at the path now. */
describe('a database file replaced or removed under the server', () => {
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-database-replaced-'));
  const file = join(directory, 'live.sqlite');
  let client: TestClient;

  beforeAll(async () => {
    databaseSaying(file, 'first');
    databaseSaying(join(directory, 'backup.sqlite'), 'second');
    client = await connectOwning(
      await createDatabaseServer({ file, allowWrite: true, logLevel: 'emergency', limits: { timeoutMs: 10_000 } }),
    );
  });
  afterAll(async () => {
    await client?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const read = async () => {
    const result = await client.callTool('query', { sql: 'SELECT word FROM t' });
    return result.isError ? resultText(result) : (result.structuredContent as { rows: unknown[][] }).rows;
  };

  it('reads, and writes, the file renamed over the path, from every worker', async () => {
    // Three calls at once keep more than one worker busy, so each of them has opened the first file.
    expect(await Promise.all([read(), read(), read()])).toEqual([[['first']], [['first']], [['first']]]);
    copyFileSync(join(directory, 'backup.sqlite'), join(directory, 'incoming.sqlite'));
    renameSync(join(directory, 'incoming.sqlite'), file);
    expect(await Promise.all([read(), read(), read()])).toEqual([[['second']], [['second']], [['second']]]);
    await client.callTool('execute', { sql: "INSERT INTO t VALUES ('third')" });
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(2);
    db.close();
  });

  it('says the file is gone instead of reading the removed copy', async () => {
    rmSync(file);
    expect(await read()).toMatch(/^The database file live\.sqlite is no longer there \(deleted or moved/);
    databaseSaying(file, 'fourth');
    expect(await read()).toEqual([['fourth']]);
  });
});
