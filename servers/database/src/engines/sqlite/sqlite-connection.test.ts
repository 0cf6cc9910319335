import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteConnection } from './sqlite-connection.js';

describe('SqliteConnection', () => {
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-connection-'));
  const file = join(directory, 'rows.sqlite');
  const setup = new Database(file);
  setup.exec(`CREATE TABLE t (n INTEGER PRIMARY KEY);
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50) INSERT INTO t SELECT x FROM c;
    CREATE TABLE big (n INTEGER, r REAL);
    INSERT INTO big SELECT n, n / 2.0 FROM t;
    UPDATE big SET n = 9007199254740993 WHERE n = 30;
    UPDATE big SET n = -9223372036854775808 WHERE n = 31;
    UPDATE big SET r = 1e20 WHERE n = 2;`);
  setup.close();
  const connection = new SqliteConnection({
    file,
    writable: false,
    cellChars: 100,
    byteBudget: 10_000,
    countLimit: 20,
    countTimeMs: 1000,
  });
  afterAll(() => {
    connection.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('counts a cut result exactly within the count limit, with parameters and a trailing semicolon', () => {
    const result = connection.query({ sql: 'SELECT n FROM t WHERE n > ?;', params: [30], maxRows: 5 });
    expect(result).toMatchObject({ truncated: 'row_cap', totalRows: 20 });
    expect(result.rows).toEqual([[31], [32], [33], [34], [35]]);
  });

  it('says "at least" past the count limit', () => {
    const result = connection.query({ sql: 'SELECT n FROM t', maxRows: 5 });
    expect(result.totalRows).toBeUndefined();
    expect(result.totalRowsAtLeast).toBe(25);
  });

  it('falls back to "at least one more" for a statement that cannot be counted', () => {
    const result = connection.query({ sql: "PRAGMA table_info('t')", maxRows: 1 });
    expect(result.rows).toHaveLength(1);
    expect(result.totalRowsAtLeast ?? result.totalRows).toBeDefined();
  });

  it('keeps integers past 2^53 exact when they turn up after many rows read as doubles', () => {
    const result = connection.query({ sql: 'SELECT n, r FROM big ORDER BY rowid', maxRows: 50 });
    expect(result.rows).toHaveLength(50);
    expect(result.rows[0]).toEqual([1, 0.5]);
    expect(result.rows[1]).toEqual([2, 1e20]);
    expect(result.rows[29]).toEqual(['9007199254740993', 15]);
    expect(result.rows[30]).toEqual(['-9223372036854775808', 15.5]);
    expect(result.rows[49]).toEqual([50, 25]);
  });

  it('reads a real number past 2^53 as the number it is', () => {
    const result = connection.query({ sql: 'SELECT r, 2.0 * 9007199254740993 FROM big WHERE n = 2', maxRows: 5 });
    expect(result.rows).toEqual([[1e20, 18014398509481984]]);
  });

  it('is opened read-only: even a direct write through the handle fails', () => {
    expect(() => connection.db.exec('DELETE FROM t')).toThrow(/readonly|query_only|prohibited/i);
  });
});
