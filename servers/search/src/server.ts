import type { LookupFunction } from 'node:net';
import { type AnyTool, createServer, KitError, type KitServer, type LogLevel } from '@mcpkit/server-kit';
import type { FetchLimits } from './fetch/guarded-fetch.js';
import { createPageFetcher } from './fetch/page-fetcher.js';
import { LocalIndex } from './local-index/local-index.js';
import { PostgresIndex } from './postgres-index/postgres-index.js';
import type { Ranking } from './postgres-index/postgres-search.js';
import { documentsResource } from './resources/documents.js';
import type { SearchIndex } from './search-index.js';
import { fetchUrl } from './tools/fetch-url.js';
import { getDocument } from './tools/get-document.js';
import { indexPath } from './tools/index-path.js';
import { indexStatus } from './tools/index-status.js';
import { search } from './tools/search.js';
import { webSearch } from './tools/web-search.js';
import type { WebSearchProvider } from './web/web-search-provider.js';

/** Everything the search server is built from. */
export interface SearchServerOptions {
  /** The directories to index, search and serve (with `indexUrl`, the folders this process writes; may be none). */
  directories: readonly string[];
  /** The SQLite index file; `:memory:` keeps the index in memory. Ignored when `indexUrl` is given. */
  indexFile?: string;
  /** A PostgreSQL URL: search an index shared with other server processes instead of an SQLite file. */
  indexUrl?: string;
  /** With `indexUrl`: the source name of each directory (default: the folder's name). */
  sourceNames?: readonly string[];
  /** With `indexUrl`: how results are ranked (default BM25). */
  ranking?: Ranking;
  /** Files larger than this many bytes are not indexed (default 1 MiB). */
  maxFileSize?: number;
  /** Files per index transaction at most (default 2000); smaller keeps requests flowing during a long run. */
  batchFiles?: number;
  /** Index the directories when the server starts (default true); searches wait briefly for it. */
  indexOnStart?: boolean;
  /** Watch the directories and re-index what changes (default true). */
  watch?: boolean;
  /** The web search provider; without one, `web_search` is not offered. */
  webSearch?: WebSearchProvider;
  /** Let fetch_url reach loopback and private addresses (intranet use). */
  allowPrivate?: boolean;
  /** Obey robots.txt in fetch_url (default true). */
  respectRobots?: boolean;
  /** Caps and time limits of fetch_url. */
  fetchLimits?: Partial<FetchLimits>;
  /** DNS resolution for fetch_url; the SSRF guard checks whatever it answers. */
  lookup?: LookupFunction;
  /** The lowest level logged to stderr. */
  logLevel?: LogLevel;
  /** The version sent to clients (the package's, from the command line). */
  version?: string;
}

/** Builds the search server: local search tools and resources, fetch_url, and web_search when configured. */
export function createSearchServer(options: SearchServerOptions): KitServer {
  const index = openSearchIndex(options);
  const fetcher = createPageFetcher({
    allowPrivate: options.allowPrivate ?? false,
    respectRobots: options.respectRobots ?? true,
    ...(options.fetchLimits ? { limits: options.fetchLimits } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  const tools: AnyTool[] = [search(index), getDocument(index)];
  if (index.indexing) tools.push(indexPath(index.indexing));
  tools.push(indexStatus(index), fetchUrl(fetcher));
  if (options.webSearch) tools.push(webSearch(options.webSearch));
  const server = createServer({
    name: 'mcpkit-search',
    version: options.version ?? '0.1.0',
    title: 'Document and Web Search',
    instructions:
      'Search the local documents with `search` (results give path:line), read them with `get_document`. ' +
      'Fetch web pages with `fetch_url`' +
      (options.webSearch ? ' and search the web with `web_search`.' : '.'),
    tools,
    resources: [documentsResource(index)],
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    async onClose() {
      await Promise.allSettled([index.close(), fetcher.close()]);
    },
  });
  const logError = (error: unknown) => server.log.error('Indexing failed', error);
  if (index.indexing && (options.indexOnStart ?? true)) index.indexing.startInitialRefresh(logError);
  if (index.indexing && (options.watch ?? true)) index.indexing.watch(logError);
  return server;
}

/** The index the options name: PostgreSQL for `indexUrl`, else the SQLite file. */
export function openSearchIndex(options: SearchServerOptions): SearchIndex {
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
