import type Database from 'better-sqlite3';

/**
 * A value made once per connection and kept as long as it (prepared statements, SQL functions, temporary tables):
 * a search prepared its statements on every call, about a fifth of a short query's time.
 */
export function perConnection<T>(make: (connection: Database.Database) => T): (connection: Database.Database) => T {
  const made = new WeakMap<Database.Database, T>();
  return (connection) => {
    let value = made.get(connection);
    if (value === undefined) {
      value = make(connection);
      made.set(connection, value);
    }
    return value;
  };
}
