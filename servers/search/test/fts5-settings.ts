import type { IndexDatabase } from '../src/local-index/index-database.js';

/**
 * The FTS5 settings stored in an index file (its `passages_config` table: `automerge`, `crisismerge`, `hashsize`, and
 * FTS5's own `version`), by name. Only the settings something has set are there; FTS5's defaults are not.
 */
export function fts5Settings(database: IndexDatabase): Record<string, unknown> {
  const rows = database.connection.prepare('SELECT k, v FROM passages_config').raw().all() as [string, unknown][];
  return Object.fromEntries(rows);
}
