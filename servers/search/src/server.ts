import type { LookupFunction } from 'node:net';
import { type AnyTool, createServer, KitError, type KitServer, type LogLevel } from '@mcpkit/server-kit';
import { AllowedDirectories } from './allowed-directories.js';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { DeferredIndex } from './deferred-index.js';
import { fileUris, sharedUris } from './document-uris.js';
import type { FetchLimits } from './fetch/guarded-fetch.js';
import { createLazyPageFetcher } from './fetch/lazy-page-fetcher.js';
import { SourceRoots } from './postgres-index/source-roots.js';
import { urlWithoutPassword } from './postgres-index/url-without-password.js';
import { documentsResource } from './resources/documents.js';
import { indexBackend, loadSearchIndex, type SearchIndexOptions } from './search-index-options.js';
import { fetchUrl } from './tools/fetch-url.js';
import { getDocument } from './tools/get-document.js';
import { indexPath } from './tools/index-path.js';
import { indexStatus } from './tools/index-status.js';
import { search } from './tools/search.js';
import { webSearch } from './tools/web-search.js';
import type { WebSearchProvider } from './web/web-search-provider.js';

/** Everything the search server is built from. */
export interface SearchServerOptions extends SearchIndexOptions {
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

/**
 * Whole-file reads (get_document's, up to 16 MB, and a resource's, up to 4 MB) running at once: 40 get_document calls
 * at once on a 16 MB file took the process from 100 MB to 1.07 GB; the others wait their turn.
 */
const wholeFileReadsAtOnce = 4;

/** How long after it starts a server opens its index when no client has listed its tools by then (HTTP, a quiet client). */
const openAnywayMs = 1000;

/**
 * Builds the search server: local search tools and resources, fetch_url, and web_search when configured. Nothing
 * that the first `tools/list` does not need is loaded or opened before it: the index opens (and its first indexing
 * run starts) right after that answer, when a call first needs it, or a second after start, whichever comes first;
 * undici and the HTML converter load on the first fetch.
 */
export function createSearchServer(options: SearchServerOptions): KitServer {
  // A local index always indexes its folders; a shared one only when this process was given some. Missing folders
  // and bad source names are refused here, before anything is served, and the index serves the folders checked here.
  const writes = options.indexUrl === undefined || options.directories.length > 0;
  const directories = writes ? new AllowedDirectories(options.directories) : undefined;
  const backend = indexBackend(options, directories);
  const shared = backend.kind === 'postgres';
  if (shared && directories) new SourceRoots(directories.roots, options.sourceNames);
  const location = shared ? urlWithoutPassword(backend.options.url) : backend.options.indexFile;
  const index = new DeferredIndex({
    location,
    documentUris: shared ? sharedUris : fileUris,
    async open() {
      const opened = await loadSearchIndex(backend);
      const logError = (error: unknown) => server.log.error('Indexing failed', error);
      if (opened.indexing && (options.indexOnStart ?? true)) opened.indexing.startInitialRefresh(logError);
      if (opened.indexing && (options.watch ?? true)) opened.indexing.watch(logError);
      return opened;
    },
    onOpenFailed: (error) => server.log.error(`Opening the index ${location} failed`, error),
  });
  const fetcher = createLazyPageFetcher({
    allowPrivate: options.allowPrivate ?? false,
    respectRobots: options.respectRobots ?? true,
    ...(options.fetchLimits ? { limits: options.fetchLimits } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  const wholeFileReads = new ConcurrencyLimit(wholeFileReadsAtOnce);
  const tools: AnyTool[] = [search(index), getDocument(index, wholeFileReads)];
  if (writes) {
    tools.push(
      indexPath(async () => {
        const indexing = (await index.open()).indexing;
        if (!indexing) throw new KitError('INVALID_OPTIONS', 'An index opened with directories has an indexer.');
        return indexing;
      }),
    );
  }
  tools.push(indexStatus(index), fetchUrl(fetcher));
  if (options.webSearch) tools.push(webSearch(options.webSearch));
  const openAnyway = setTimeout(() => index.start(), openAnywayMs);
  openAnyway.unref();
  const server = createServer({
    name: 'mcpkit-search',
    version: options.version ?? '0.1.0',
    title: 'Document and Web Search',
    instructions:
      'Search the local documents with `search` (results give path:line), read them with `get_document`. ' +
      'Fetch web pages with `fetch_url`' +
      (options.webSearch ? ' and search the web with `web_search`.' : '.'),
    tools,
    resources: [documentsResource(index, wholeFileReads)],
    // The answer goes out first; the index opens on the next turn of the event loop.
    onToolsListed: () => setImmediate(() => index.start()),
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    async onClose() {
      clearTimeout(openAnyway);
      await Promise.allSettled([index.close(), fetcher.close()]);
    },
  });
  return server;
}
