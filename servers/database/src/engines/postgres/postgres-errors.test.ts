import { describe, expect, it } from 'vitest';
import { describeConnectionError, describePostgresError, describeTarget, redact } from './postgres-errors.js';

describe('postgres errors', () => {
  it('labels a URL without its password', () => {
    const target = describeTarget('postgres://ana:s3cr%40t@db.example.com:6543/sales');
    expect(target).toMatchObject({
      label: 'postgres://ana@db.example.com:6543/sales',
      password: 's3cr@t',
      user: 'ana',
    });
    expect(() => describeTarget('not a url')).toThrow(/not valid/);
  });

  it('never repeats the password, even when a message carries it', () => {
    const target = describeTarget('postgres://ana:hunter2@localhost/sales');
    expect(redact('password hunter2 rejected', 'hunter2')).toBe('password *** rejected');
    const error = Object.assign(new Error('login with hunter2 failed'), { code: '28P01' });
    expect(describeConnectionError(error, target)).toBe(
      'PostgreSQL at localhost:5432 refused the login of user "ana": login with *** failed.',
    );
  });

  it('gives the line and column of an error position', () => {
    const error = Object.assign(new Error('syntax error at or near "FORM"'), { code: '42601', position: '12' });
    expect(describePostgresError(error, 'SELECT 1\nFORM x', '')).toBe(
      'The SQL has a syntax error at line 2, column 3 (PostgreSQL: syntax error at or near "FORM").',
    );
  });

  it('quotes the head of a message that carries a huge value, not all of it', () => {
    const value = 'x'.repeat(5_000_000);
    const error = Object.assign(new Error(`invalid input syntax for type integer: "${value}"`), { code: '22P02' });
    const text = describePostgresError(error, `SELECT '${value}'::int`, '');
    expect(text).toMatch(
      /^PostgreSQL refused the statement: invalid input syntax for type integer: "x+\.\.\. \[[\d,]+ more characters\] \[22P02\]\.$/,
    );
    expect(text.length).toBeLessThan(1_000);
  });
});
