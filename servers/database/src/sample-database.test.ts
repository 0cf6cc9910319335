import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSampleDatabase } from './sample-database.js';

describe('createSampleDatabase', () => {
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-sample-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('writes users with full names and emails, and orders linked by foreign keys', () => {
    const file = join(directory, 'a.sqlite');
    expect(createSampleDatabase(file).tables).toEqual({ users: 8, customers: 6, products: 8, orders: 40 });
    const db = new Database(file, { readonly: true });
    const users = db.prepare('SELECT full_name, email FROM users ORDER BY id').all() as {
      full_name: string;
      email: string;
    }[];
    expect(users).toHaveLength(8);
    for (const user of users) {
      expect(user.full_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
      expect(user.email).toBe(`${user.full_name.toLowerCase().replace(' ', '.')}@example.com`);
    }
    expect(db.prepare('SELECT count(*) FROM pragma_foreign_key_check').pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM pragma_foreign_key_list('orders')").pluck().get()).toBe(2);
    db.close();
  });

  it('writes the same content every time and never overwrites a file', () => {
    const second = join(directory, 'b.sqlite');
    createSampleDatabase(second);
    expect(readFileSync(second).equals(readFileSync(join(directory, 'a.sqlite')))).toBe(true);
    expect(() => createSampleDatabase(second)).toThrow(/already exists/);
  });
});
