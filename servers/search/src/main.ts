import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineSubcommand, packageVersion, runServerCommand, UsageError } from '@mcpkit/server-kit/cli';
import type { IndexProgress, IndexReport } from './local-index/indexer.js';
import { indexBackend, loadSearchIndex } from './search-index-options.js';
import { createSearchServer } from './server.js';
import type { WebSearchProvider } from './web/web-search-provider.js';

const version = packageVersion(new URL('../package.json', import.meta.url));

/**
 * The default index file: one per set of directories, so `index DIR` and `DIR` share it. node:crypto loads only for
 * it (a server given --index-file does not need it before answering).
 */
async function defaultIndexFile(directories: string[], environment: NodeJS.ProcessEnv): Promise<string> {
  const { createHash } = await import('node:crypto');
  const cache =
    environment.MCPKIT_SEARCH_CACHE ?? join(environment.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mcpkit-search');
  const key = createHash('sha256')
    .update(
      directories
        .map((directory) => resolve(directory))
        .sort()
        .join('\0'),
    )
    .digest('hex')
    .slice(0, 16);
  return join(cache, `index-${key}.sqlite`);
}

/** The flags that choose where the index lives, shared by serving and `index`. */
const indexFlags = {
  'index-file': {
    type: 'string',
    description: 'The SQLite index file (default: a file per directory set in the cache folder)',
    valueName: 'FILE',
  },
  'index-url': {
    type: 'string',
    description: 'A PostgreSQL URL: use an index shared by many servers instead of a file (or MCPKIT_SEARCH_INDEX_URL)',
    valueName: 'URL',
  },
  source: {
    type: 'string',
    multiple: true,
    description: 'With --index-url, the name a DIR is stored under (one per DIR, in order; default: its folder name)',
    valueName: 'NAME',
  },
  'max-file-size': {
    type: 'integer',
    description: 'Skip files larger than this many bytes (1048576)',
    valueName: 'BYTES',
  },
} as const;

/** Where the index lives, from the flags and the environment; a usage error for contradicting choices. */
async function indexLocation(
  values: { 'index-file'?: string; 'index-url'?: string; source?: string[] },
  directories: string[],
  environment: NodeJS.ProcessEnv,
): Promise<{ indexFile: string } | { indexUrl: string; sourceNames?: string[] }> {
  const url = values['index-url'] ?? environment.MCPKIT_SEARCH_INDEX_URL;
  if (url !== undefined && values['index-file'] !== undefined) {
    throw new UsageError('Pass either --index-file or --index-url, not both.');
  }
  if (url === undefined) {
    if (values.source) throw new UsageError('--source names folders of a shared index; it needs --index-url.');
    if (directories.length === 0) throw new UsageError('mcpkit-search needs DIR [DIR...] (or --index-url URL).');
    return { indexFile: values['index-file'] ?? (await defaultIndexFile(directories, environment)) };
  }
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new UsageError(`The index URL must start with postgres:// or postgresql:// (got ${JSON.stringify(url)}).`);
  }
  if (values.source && values.source.length !== directories.length) {
    throw new UsageError(`Give one --source per DIR (${directories.length} DIR, ${values.source.length} --source).`);
  }
  return { indexUrl: url, ...(values.source ? { sourceNames: values.source } : {}) };
}

function reportLine(report: IndexReport): string {
  return (
    `${report.directory}: ${report.scanned} files, ${report.added} added, ${report.updated} updated, ` +
    `${report.removed} removed, ${report.unchanged} unchanged, ${report.binary} binary, ${report.durationMs} ms\n`
  );
}

/** The configured web search provider, its module loaded only when one is configured. */
async function webSearchProvider(
  searxngFlag: string | undefined,
  environment: NodeJS.ProcessEnv,
): Promise<WebSearchProvider | undefined> {
  const searxng = searxngFlag ?? environment.SEARXNG_URL;
  if (environment.BRAVE_API_KEY && !searxngFlag) {
    const { braveProvider } = await import('./web/brave-provider.js');
    return braveProvider({
      apiKey: environment.BRAVE_API_KEY,
      ...(environment.BRAVE_SEARCH_ENDPOINT ? { endpoint: environment.BRAVE_SEARCH_ENDPOINT } : {}),
    });
  }
  if (searxng) {
    try {
      new URL(searxng);
    } catch {
      throw new UsageError(`The SearXNG URL ${JSON.stringify(searxng)} is not a valid URL.`);
    }
    const { searxngProvider } = await import('./web/searxng-provider.js');
    return searxngProvider({ url: searxng });
  }
  return undefined;
}

/**
 * `mcpkit-search index DIR...`: builds or refreshes the index with a progress bar on stderr, then exits; with
 * `--watch` it stays and re-indexes what changes (the writer of a team's shared index).
 */
const indexCommand = defineSubcommand({
  description:
    'Builds or refreshes the index of the directories (only changed files are read), then exits, or with --watch ' +
    'keeps it fresh. Several indexers of one --index-url take turns.',
  positionals: 'DIR [DIR...]',
  requirePositionals: true,
  flags: {
    ...indexFlags,
    watch: { type: 'boolean', description: 'Keep running and re-index what changes (Ctrl-C stops)' },
    rebuild: {
      type: 'boolean',
      description:
        'With --index-url, index everything again into new tables, swapped in at the end (readers keep answering)',
    },
  },
  async run({ values, positionals }) {
    const maxFileSize = values['max-file-size'];
    const location = await indexLocation(values, positionals, process.env);
    if (values.rebuild && !('indexUrl' in location)) {
      throw new UsageError('--rebuild rebuilds a shared index (--index-url); for an index file, delete the file.');
    }
    // The index's backend loads here (better-sqlite3 or pg, not both), as in a server once it has answered tools/list.
    const index = await loadSearchIndex(
      indexBackend({ directories: positionals, ...location, ...(maxFileSize !== undefined ? { maxFileSize } : {}) }),
    );
    const indexing = index.indexing;
    if (!indexing) throw new Error('An index opened with directories has an indexer.');
    const { createProgressBar } = await import('./progress-bar.js');
    const bar = createProgressBar(process.stderr);
    const interrupt = new AbortController();
    const stop = () => interrupt.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      const runOptions = { signal: interrupt.signal, onProgress: (progress: IndexProgress) => bar.update(progress) };
      // --rebuild comes with --index-url (checked above), so pg is loaded already.
      const { PostgresIndex } = values.rebuild ? await import('./postgres-index/postgres-index.js') : {};
      const reports =
        PostgresIndex && index instanceof PostgresIndex
          ? await index.rebuild(runOptions)
          : await indexing.refreshAll(runOptions);
      bar.done();
      if (values.rebuild) process.stderr.write('Rebuilt: the new tables replaced the old ones.\n');
      for (const report of reports) process.stderr.write(reportLine(report));
      process.stderr.write(`Index: ${index.location}\n`);
      if (values.watch && !interrupt.signal.aborted) {
        process.stderr.write('Watching for changes (Ctrl-C stops).\n');
        indexing.watch(
          (error) => process.stderr.write(`Indexing failed: ${error instanceof Error ? error.message : error}\n`),
          (report) => {
            if (report.added + report.updated + report.removed > 0) process.stderr.write(reportLine(report));
          },
        );
        await new Promise<void>((resolve) => interrupt.signal.addEventListener('abort', () => resolve()));
      }
    } finally {
      await index.close();
    }
  },
});

await runServerCommand(
  {
    name: 'mcpkit-search',
    version,
    description: 'An MCP server for offline full-text search of local documents, web search and safe URL fetching.',
    positionals: '[DIR...]',
    flags: {
      ...indexFlags,
      'no-watch': { type: 'boolean', description: 'Do not watch the directories for changes' },
      'allow-private': {
        type: 'boolean',
        description: 'Let fetch_url reach loopback and private addresses (intranet use)',
      },
      'ignore-robots': { type: 'boolean', description: 'Let fetch_url ignore robots.txt' },
      'searxng-url': {
        type: 'string',
        description: 'Offer web_search through this SearXNG instance (or set SEARXNG_URL)',
        valueName: 'URL',
      },
    },
    environment: {
      BRAVE_API_KEY: 'Offer web_search through Brave Search with this API key',
      SEARXNG_URL: 'Offer web_search through this SearXNG instance (when BRAVE_API_KEY is not set)',
      MCPKIT_SEARCH_INDEX_URL: 'The PostgreSQL URL of a shared index (as --index-url; keeps the password out of ps)',
      MCPKIT_SEARCH_CACHE:
        'Folder of the default index files (default: $XDG_CACHE_HOME or ~/.cache, then mcpkit-search)',
      MCPKIT_TOKEN: 'Bearer token required over HTTP',
    },
    subcommands: { index: indexCommand },
  },
  async ({ values, positionals, logLevel }) => {
    const maxFileSize = values['max-file-size'];
    const webSearch = await webSearchProvider(values['searxng-url'], process.env);
    return createSearchServer({
      directories: positionals,
      ...(await indexLocation(values, positionals, process.env)),
      ...(maxFileSize !== undefined ? { maxFileSize } : {}),
      watch: !values['no-watch'],
      allowPrivate: values['allow-private'] ?? false,
      respectRobots: !values['ignore-robots'],
      ...(webSearch ? { webSearch } : {}),
      logLevel,
      version,
    });
  },
);
