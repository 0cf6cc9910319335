import { packageVersion, runServerCommand, UsageError } from '@mcpkit/server-kit/cli';
import { indexCommand } from './index-command.js';
import { indexFlags, indexLocation } from './index-location.js';
import { createSearchServer } from './server.js';
import type { WebSearchProvider } from './web/web-search-provider.js';

const version = packageVersion(new URL('../package.json', import.meta.url));

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
