import { LocalIndex } from './local-index/local-index.js';
import { PostgresIndex } from './postgres-index/postgres-index.js';
import type { SearchIndex } from './search-index.js';
import { indexBackend, type SearchIndexOptions } from './search-index-options.js';

/**
 * The index the options name, opened at once: PostgreSQL for `indexUrl`, else the SQLite file. For embedding and
 * tests; this module loads both backends (the server and the command line use `loadSearchIndex`, which loads one).
 */
export function openSearchIndex(options: SearchIndexOptions): SearchIndex {
  const backend = indexBackend(options);
  return backend.kind === 'postgres' ? new PostgresIndex(backend.options) : new LocalIndex(backend.options);
}
