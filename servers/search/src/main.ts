import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineSubcommand, packageVersion, runServerCommand, UsageError } from '@mcpkit/server-kit/cli';
import { LocalIndex } from './local-index/local-index.js';
import { createProgressBar } from './progress-bar.js';
import { createSearchServer } from './server.js';
import { braveProvider } from './web/brave-provider.js';
import { searxngProvider } from './web/searxng-provider.js';
import type { WebSearchProvider } from './web/web-search-provider.js';

const version = packageVersion(new URL('../package.json', import.meta.url));

/** The default index file: one per set of directories, so `index DIR` and `DIR` share it. */
function defaultIndexFile(directories: string[], environment: NodeJS.ProcessEnv): string {
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

function webSearchProvider(
  searxngFlag: string | undefined,
  environment: NodeJS.ProcessEnv,
): WebSearchProvider | undefined {
  const searxng = searxngFlag ?? environment.SEARXNG_URL;
  if (environment.BRAVE_API_KEY && !searxngFlag) {
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
    return searxngProvider({ url: searxng });
  }
  return undefined;
}

/** `mcpkit-search index DIR...`: builds or refreshes the index with a progress bar on stderr, then exits. */
const indexCommand = defineSubcommand({
  description: 'Builds or refreshes the index of the directories (only changed files are read), then exits.',
  positionals: 'DIR [DIR...]',
  requirePositionals: true,
  flags: {
    'index-file': {
      type: 'string',
      description: 'The SQLite index file (default: as when serving)',
      valueName: 'FILE',
    },
    'max-file-size': {
      type: 'integer',
      description: 'Skip files larger than this many bytes (1048576)',
      valueName: 'BYTES',
    },
  },
  async run({ values, positionals }) {
    const maxFileSize = values['max-file-size'];
    const index = new LocalIndex({
      directories: positionals,
      indexFile: values['index-file'] ?? defaultIndexFile(positionals, process.env),
      ...(maxFileSize !== undefined ? { maxFileSize } : {}),
    });
    const bar = createProgressBar(process.stderr);
    const interrupt = new AbortController();
    process.once('SIGINT', () => interrupt.abort());
    try {
      const reports = await index.refreshAll({
        signal: interrupt.signal,
        onProgress: (progress) => bar.update(progress),
      });
      bar.done();
      for (const report of reports) {
        process.stderr.write(
          `${report.directory}: ${report.scanned} files, ${report.added} added, ${report.updated} updated, ` +
            `${report.removed} removed, ${report.unchanged} unchanged, ${report.binary} binary, ${report.durationMs} ms\n`,
        );
      }
      process.stderr.write(`Index file: ${index.database.file}\n`);
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
    positionals: 'DIR [DIR...]',
    requirePositionals: true,
    flags: {
      'index-file': {
        type: 'string',
        description: 'The SQLite index file (default: a file per directory set in the cache folder)',
        valueName: 'FILE',
      },
      'max-file-size': {
        type: 'integer',
        description: 'Skip files larger than this many bytes (1048576)',
        valueName: 'BYTES',
      },
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
      MCPKIT_SEARCH_CACHE:
        'Folder of the default index files (default: $XDG_CACHE_HOME or ~/.cache, then mcpkit-search)',
      MCPKIT_TOKEN: 'Bearer token required over HTTP',
    },
    subcommands: { index: indexCommand },
  },
  ({ values, positionals, logLevel }) => {
    const maxFileSize = values['max-file-size'];
    const webSearch = webSearchProvider(values['searxng-url'], process.env);
    return createSearchServer({
      directories: positionals,
      indexFile: values['index-file'] ?? defaultIndexFile(positionals, process.env),
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
