import { describe, expect, it } from 'vitest';
import { sqlTokens } from './sql-words.js';
import { checkPostgresStatement, checkStatement, destructiveReason, StatementError } from './statement-safety.js';

const reads = { readonly: true, reader: true };

describe('sqlTokens', () => {
  it('skips comments and keeps strings and quoted names whole', () => {
    const tokens = sqlTokens(`/* ATTACH */ SELECT 'a ''; DROP' AS "x"";y" -- DETACH\nFROM t`);
    expect(tokens.map((token) => [token.kind, token.value])).toEqual([
      ['word', 'SELECT'],
      ['string', "a ''; DROP"],
      ['word', 'AS'],
      ['quoted', 'x"";y'],
      ['word', 'FROM'],
      ['word', 'T'],
    ]);
  });

  it('tracks parenthesis depth and reads dollar quotes only when asked', () => {
    const tokens = sqlTokens('DELETE FROM t WHERE id IN (SELECT id FROM u WHERE x)');
    expect(tokens.filter((token) => token.value === 'WHERE').map((token) => token.depth)).toEqual([0, 1]);
    expect(sqlTokens('SELECT $a$ ; DROP $a$', { dollarQuotes: true }).map((token) => token.kind)).toEqual([
      'word',
      'string',
    ]);
    expect(sqlTokens('SELECT $name').map((token) => token.kind)).toEqual(['word', 'parameter']);
  });
});

describe('checkStatement', () => {
  it('trusts the engine on writes and on statements without rows in read mode', () => {
    expect(() => checkStatement('UPDATE t SET a = 1', { readonly: false, reader: false }, 'read')).toThrow(
      /would change the database/,
    );
    expect(() => checkStatement('SELECT 1', { readonly: true, reader: false }, 'read')).toThrow(/returns none/);
    expect(() => checkStatement('UPDATE t SET a = 1', { readonly: false, reader: false }, 'write')).not.toThrow();
  });

  it.each([
    ['ATTACH', "ATTACH 'x' AS y"],
    ['a commented ATTACH', "-- note\n  attach database 'x' as y"],
    ['DETACH', 'DETACH y'],
    ['VACUUM INTO', "VACUUM main INTO 'copy.sqlite'"],
    ['a pragma assignment', 'PRAGMA query_only=0'],
    ['a schema-qualified pragma assignment', 'PRAGMA main.writable_schema = ON'],
    ['a pragma call that is not about the schema', 'PRAGMA cache_size(5)'],
    ['load_extension', 'SELECT LOAD_EXTENSION ("x")'],
    ['a transaction', 'COMMIT'],
    ['a savepoint', 'savepoint a'],
  ])('refuses %s in both modes, with a StatementError', (_name, sql) => {
    for (const mode of ['read', 'write'] as const) {
      expect(() => checkStatement(sql, reads, mode)).toThrow(StatementError);
    }
  });

  it('allows schema pragmas, reading a setting, and keywords inside strings', () => {
    expect(() => checkStatement("PRAGMA table_info('users')", reads, 'read')).not.toThrow();
    expect(() => checkStatement('PRAGMA main.index_list(users)', reads, 'read')).not.toThrow();
    expect(() => checkStatement('PRAGMA user_version', reads, 'read')).not.toThrow();
    expect(() => checkStatement("SELECT 'ATTACH', 'load_extension(x)' AS attach", reads, 'read')).not.toThrow();
    expect(() => checkStatement('VACUUM', { readonly: false, reader: false }, 'write')).not.toThrow();
  });
});

describe('destructiveReason', () => {
  it.each([
    ['DROP TABLE users', 'DROP TABLE deletes the object and all its data'],
    ['drop index users_email', 'DROP INDEX deletes the object and all its data'],
    ['DELETE FROM orders', 'DELETE without WHERE removes every row of the table'],
    ['delete from orders where id in (select id from orders where 1)', undefined],
    ['DELETE FROM orders WHERE id = 1', undefined],
    [
      'UPDATE users SET role = (SELECT role FROM users WHERE id = 1)',
      'UPDATE without WHERE changes every row of the table',
    ],
    [
      'WITH old AS (SELECT id FROM orders WHERE id < 5) DELETE FROM orders',
      'DELETE without WHERE removes every row of the table',
    ],
    ['ALTER TABLE users DROP COLUMN role', 'ALTER ... DROP removes part of the table and its data'],
    ['ALTER TABLE users ADD COLUMN age INTEGER', undefined],
    ["INSERT INTO notes VALUES ('DROP TABLE users')", undefined],
    ['TRUNCATE orders', 'TRUNCATE removes every row of the table'],
  ])('%s', (sql, reason) => {
    expect(destructiveReason(sql)).toBe(reason);
  });
});

describe('checkPostgresStatement', () => {
  it('refuses a second statement hidden after comments, strings or dollar quotes, but not a semicolon at the end', () => {
    expect(() => checkPostgresStatement('SELECT 1; DELETE FROM t', 'read')).toThrow(/more than one statement/);
    expect(() => checkPostgresStatement("SELECT ';' -- x\n; COMMIT", 'write')).toThrow(/more than one statement/);
    expect(() => checkPostgresStatement('SELECT $q$;$q$; DROP TABLE t', 'read')).toThrow(/more than one statement/);
    expect(() => checkPostgresStatement('SELECT $q$; DROP TABLE t$q$;', 'read')).not.toThrow();
  });

  it('runs only reads in read mode, and never EXPLAIN ANALYZE or row locks there', () => {
    expect(() => checkPostgresStatement('TABLE users', 'read')).not.toThrow();
    expect(() => checkPostgresStatement('show search_path', 'read')).not.toThrow();
    expect(() => checkPostgresStatement('UPDATE t SET a = 1', 'read')).toThrow(/UPDATE is refused/);
    expect(() => checkPostgresStatement('EXPLAIN (ANALYSE) SELECT 1', 'read')).toThrow(/EXPLAIN ANALYZE/);
    expect(() => checkPostgresStatement('SELECT * FROM t FOR NO KEY UPDATE', 'read')).toThrow(/row locks/);
    expect(() => checkPostgresStatement("SELECT E'\\'' FOR UPDATE --'", 'read')).toThrow(/row locks/);
    expect(() =>
      checkPostgresStatement("SELECT E'it\\'s', 'plain' /* a /* nested */ comment */", 'read'),
    ).not.toThrow();
    expect(() => checkPostgresStatement('UPDATE t SET a = 1', 'write')).not.toThrow();
  });

  it.each([
    "COPY t FROM '/etc/passwd'",
    'ALTER SYSTEM SET fsync = off',
    'SELECT "pg_read_binary_file"(\'x\')',
    "SELECT lo_import('/etc/passwd')",
    "SELECT setval('s', 1)",
    'select pg_advisory_xact_lock(1)',
    "SELECT pg_notify('c', 'x')",
    'LISTEN c',
    'RESET ALL',
    // Quoting tricks that once hid a refused function from the tokenizer:
    "SELECT E'\\'', pg_read_file('/etc/passwd') --'",
    "SELECT e'\\'', dblink_exec('dbname=app', 'DROP TABLE users') --'",
    "SELECT /* /* */ ' */ pg_read_file('/etc/passwd') -- '",
    'SELECT U&"\\0070g_read_file"(\'/etc/passwd\')',
    "SELECT u&'\\0041'",
  ])('refuses %s in both modes', (sql) => {
    expect(() => checkPostgresStatement(sql, 'read')).toThrow(StatementError);
    expect(() => checkPostgresStatement(sql, 'write')).toThrow(StatementError);
  });
});

describe('the words a refusal quotes', () => {
  /** The refusal `check` throws. */
  function refusal(check: () => unknown): string {
    try {
      check();
    } catch (error) {
      if (error instanceof StatementError) return error.message;
      throw error;
    }
    throw new Error('The statement was not refused');
  }

  // The statement rules run in the server's own process for PostgreSQL (and for execute's confirmation), where no
  // worker bounds the sentence, and a refusal is an error result, outside the result budget.
  it.each([
    ['a first word PostgreSQL reads do not start with', () => checkPostgresStatement('A'.repeat(99_000), 'read')],
    ['a refused PostgreSQL function', () => checkPostgresStatement(`SELECT lo_${'x'.repeat(99_000)}(1)`, 'write')],
    ['a pragma given a value', () => checkStatement(`PRAGMA ${'a'.repeat(99_000)} = 1`, reads, 'read')],
    ['a pragma given an argument', () => checkStatement(`PRAGMA ${'a'.repeat(99_000)}(1)`, reads, 'read')],
    [
      'a statement without rows',
      () => checkStatement(`${'A'.repeat(99_000)} x`, { readonly: true, reader: false }, 'read'),
    ],
  ])('keeps the head of %s: 500 characters and how many more', (_name, check) => {
    const message = refusal(check);
    expect(message.length).toBeLessThan(1_500);
    expect(message).toMatch(/\.\.\. \[98,[\d,]+ more characters\]/);
  });

  it("keeps the head of the name in execute's confirmation reason", () => {
    const reason = destructiveReason(`DROP ${'t'.repeat(99_000)}`) ?? '';
    expect(reason.length).toBeLessThan(1_000);
    expect(reason).toMatch(/^DROP T{500}\.\.\. \[98,500 more characters\] deletes the object/);
  });
});
