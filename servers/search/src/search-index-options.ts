import { KitError } from '@mcpkit/server-kit';
import type { AllowedDirectories } from './allowed-directories.js';
import type { LocalIndexOptions } from './local-index/local-index.js';
import type { PostgresIndexOptions } from './postgres-index/postgres-index.js';
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

/** An index backend and its own options. */
export type IndexBackend =
  | { kind: 'postgres'; options: PostgresIndexOptions }
  | { kind: 'sqlite'; options: LocalIndexOptions };

/**
 * The backend the options name, with its own options: PostgreSQL for `indexUrl`, else the SQLite file. `directories`
 * are the options' folders when the caller has resolved them already (the server does, at start): the index then
 * serves the very folders that were checked, and resolves none again.
 */
export function indexBackend(options: SearchIndexOptions, directories?: AllowedDirectories): IndexBackend {
  const limits = {
    ...(options.maxFileSize !== undefined ? { maxFileSize: options.maxFileSize } : {}),
    ...(options.batchFiles !== undefined ? { batchFiles: options.batchFiles } : {}),
  };
  if (options.indexUrl !== undefined) {
    return {
      kind: 'postgres',
      options: {
        url: options.indexUrl,
        directories: directories ?? options.directories,
        ...(options.sourceNames ? { sourceNames: options.sourceNames } : {}),
        ...(options.ranking ? { ranking: options.ranking } : {}),
        ...limits,
      },
    };
  }
  if (options.indexFile === undefined) {
    throw new KitError('INVALID_OPTIONS', 'The search server needs an indexFile or an indexUrl.');
  }
  const indexFile = options.indexFile;
  return { kind: 'sqlite', options: { directories: directories ?? options.directories, indexFile, ...limits } };
}

/**
 * Opens the index of a backend (`indexBackend`), loading only its modules (better-sqlite3 and the indexer, or pg):
 * the server calls it once it has answered its first `tools/list`, so neither loads before that, and an SQLite
 * server never loads pg.
 */
export async function loadSearchIndex(backend: IndexBackend): Promise<SearchIndex> {
  if (backend.kind === 'postgres') {
    const { PostgresIndex } = await import('./postgres-index/postgres-index.js');
    return new PostgresIndex(backend.options);
  }
  const { LocalIndex } = await import('./local-index/local-index.js');
  return new LocalIndex(backend.options);
}
