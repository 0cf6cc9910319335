import { KitError } from '@mcpkit/server-kit';
import { LocalIndex } from './local-index/local-index.js';
import { PostgresIndex } from './postgres-index/postgres-index.js';
import type { Ranking } from './postgres-index/postgres-search.js';
import type { SearchIndex } from './search-index.js';

/** Where the index lives and how it indexes, as the server and `mcpkit-search index` name it. */
export interface SearchIndexOptions {
  /** The directories to index (with `indexUrl`, the folders this process writes; may be none). */
  directories: readonly string[];
  /** The SQLite index file; `:memory:` keeps the index in memory. Ignored when `indexUrl` is given. */
  indexFile?: string;
  /** A PostgreSQL URL: an index shared with other server processes instead of an SQLite file. */
  indexUrl?: string;
  /** With `indexUrl`: the source name of each directory (default: the folder's name). */
  sourceNames?: readonly string[];
  /** With `indexUrl`: how results are ranked (default BM25). */
  ranking?: Ranking;
  /** Files larger than this many bytes are not indexed (default 1 MiB). */
  maxFileSize?: number;
  /** Files per index transaction at most (default 2000); smaller keeps requests flowing during a long run. */
  batchFiles?: number;
}

/**
 * The index the options name: PostgreSQL for `indexUrl`, else the SQLite file. This module loads better-sqlite3
 * and pg; the server imports it only once it has answered its first `tools/list` (or a call needs the index).
 */
export function openSearchIndex(options: SearchIndexOptions): SearchIndex {
  const limits = {
    ...(options.maxFileSize !== undefined ? { maxFileSize: options.maxFileSize } : {}),
    ...(options.batchFiles !== undefined ? { batchFiles: options.batchFiles } : {}),
  };
  if (options.indexUrl !== undefined) {
    return new PostgresIndex({
      url: options.indexUrl,
      directories: options.directories,
      ...(options.sourceNames ? { sourceNames: options.sourceNames } : {}),
      ...(options.ranking ? { ranking: options.ranking } : {}),
      ...limits,
    });
  }
  if (options.indexFile === undefined) {
    throw new KitError('INVALID_OPTIONS', 'The search server needs an indexFile or an indexUrl.');
  }
  return new LocalIndex({ directories: options.directories, indexFile: options.indexFile, ...limits });
}
