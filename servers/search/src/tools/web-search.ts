import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { WebSearchProvider } from '../web/web-search-provider.js';

/** The `web_search` tool: searches the web through the configured provider. */
export function webSearch(provider: WebSearchProvider) {
  return defineTool({
    name: 'web_search',
    title: 'Search the web',
    description:
      `Search the web with ${provider.name}. Returns titles, URLs and snippets; read a page with fetch_url. ` +
      'Use offset to page (0 is the first page of count results).',
    input: z.object({
      query: z.string().min(1).max(400).describe('What to search for'),
      count: z.number().int().min(1).max(20).optional().describe('Results to return (default 10, at most 20)'),
      offset: z.number().int().min(0).max(9).optional().describe('Pages of results to skip (default 0, at most 9)'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: true },
    async handler({ query, count = 10, offset = 0 }, { signal }) {
      const results = await provider.search({ query, count, offset }, signal);
      const text =
        results.length === 0
          ? `${provider.name} found nothing for ${JSON.stringify(query)}${offset > 0 ? ' on this page' : ''}.`
          : results
              .map(
                (result, index) =>
                  `${offset * count + index + 1}. ${result.title}\n   ${result.url}${result.age ? ` (${result.age})` : ''}\n   ${result.snippet}`,
              )
              .join('\n');
      const next = results.length === count && offset < 9 ? `\n[More: call web_search with offset=${offset + 1}.]` : '';
      return {
        content: [{ type: 'text' as const, text: text + next }],
        structuredContent: { provider: provider.name, results },
      };
    },
  });
}
