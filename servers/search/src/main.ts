import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type LogLevel,
  parseServerCommand,
  type ServerCommand,
  type ServerFlag,
  startServer,
  UsageError,
} from '@mcpkit/server-kit';
import { LocalIndex } from './index/local-index.js';
import { createProgressBar } from './progress-bar.js';
import { createSearchServer } from './server.js';
import { braveProvider } from './web/brave-provider.js';
import { searxngProvider } from './web/searxng-provider.js';
import type { WebSearchProvider } from './web/web-search-provider.js';

const version = '0.1.0';

const command = {
  name: 'mcpkit-search',
  version,
  description:
    'an MCP server for offline full-text search of local documents, web search and safe URL fetching. ' +
    '`mcpkit-search index DIR...` builds or refreshes the index and exits.',
  positionals: 'DIR [DIR...]',
  requirePositionals: true,
  flags: {
    'index-file': {
      type: 'string',
      description: 'The SQLite index file (default: a file per directory set in the cache folder)',
      valueName: 'FILE',
    },
    'max-file-size': {
      type: 'string',
      description: 'Skip files larger than this many bytes (default 1048576)',
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
    MCPKIT_SEARCH_CACHE: 'Folder of the default index files (default: $XDG_CACHE_HOME or ~/.cache, then mcpkit-search)',
    MCPKIT_TOKEN: 'Bearer token required over HTTP',
  },
} satisfies ServerCommand<Record<string, ServerFlag>>;

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

function parseFileSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const size = Number(value);
  if (!Number.isInteger(size) || size <= 0) {
    throw new UsageError(`--max-file-size takes a positive number of bytes; got ${JSON.stringify(value)}.`);
  }
  return size;
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
async function runIndexCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'index-file': { type: 'string' },
      'max-file-size': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    process.stderr.write(
      'Usage: mcpkit-search index [--index-file FILE] [--max-file-size BYTES] DIR [DIR...]\n' +
        'Builds or refreshes the index of the directories (only changed files are read), then exits.\n',
    );
    return;
  }
  if (positionals.length === 0) throw new UsageError('mcpkit-search index needs DIR [DIR...].');
  const maxFileSize = parseFileSize(values['max-file-size']);
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
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'index') return runIndexCommand(argv.slice(1));
  const serveArguments = argv[0] === 'serve' ? argv.slice(1) : argv;
  const parsed = parseServerCommand(command, serveArguments, process.env);
  if ('exit' in parsed) {
    process.stderr.write(parsed.exit);
    return;
  }
  const directories = parsed.positionals;
  const maxFileSize = parseFileSize(parsed.values['max-file-size']);
  const webSearch = webSearchProvider(parsed.values['searxng-url'], process.env);
  const server = createSearchServer({
    directories,
    indexFile: parsed.values['index-file'] ?? defaultIndexFile(directories, process.env),
    ...(maxFileSize !== undefined ? { maxFileSize } : {}),
    watch: !parsed.values['no-watch'],
    allowPrivate: parsed.values['allow-private'] ?? false,
    respectRobots: !parsed.values['ignore-robots'],
    ...(webSearch ? { webSearch } : {}),
    logLevel: parsed.logLevel as LogLevel,
  });
  await startServer(server, parsed.transport);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`mcpkit-search: ${message}\n`);
  const usage = error instanceof UsageError || (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
  if (usage) process.stderr.write('Run mcpkit-search --help for usage.\n');
  process.exit(usage ? 2 : 1);
});
