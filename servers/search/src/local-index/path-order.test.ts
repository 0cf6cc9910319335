import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { compareCodePoints } from './path-order.js';

it('orders strings as SQLite orders their UTF-8 bytes, where JavaScript orders non-BMP characters differently', () => {
  // U+1F600 (a surrogate pair in UTF-16) against U+FF21 (full-width A): JavaScript puts the emoji first, UTF-8 last.
  const names = [
    '\u{FF21}.md',
    '\u{1F600}.md',
    'b.md',
    'a/x.md',
    'a.md',
    '\u{E000}',
    '\u{1F600}\u{FF21}',
    '\u{10000}',
    'é',
  ];
  expect('\u{1F600}' < '\u{FF21}').toBe(true);
  const database = new Database(':memory:');
  database.exec('CREATE TABLE names (name TEXT)');
  const insert = database.prepare('INSERT INTO names VALUES (?)');
  for (const name of names) insert.run(name);
  const sqliteOrder = database.prepare('SELECT name FROM names ORDER BY name').pluck().all();
  database.close();
  expect([...names].sort(compareCodePoints)).toEqual(sqliteOrder);
  expect([...names].sort()).not.toEqual(sqliteOrder);
  expect(compareCodePoints('same\u{1F600}', 'same\u{1F600}')).toBe(0);
  expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
});
