import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { perConnection } from './per-connection.js';

it('makes a value once per connection, and one for each connection', () => {
  let made = 0;
  const statementOf = perConnection((connection) => {
    made++;
    return connection.prepare('SELECT 1');
  });
  const first = new Database(':memory:');
  const second = new Database(':memory:');
  try {
    expect(statementOf(first)).toBe(statementOf(first));
    expect(statementOf(second)).not.toBe(statementOf(first));
    expect(made).toBe(2);
  } finally {
    first.close();
    second.close();
  }
});
