import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { PageFetcher } from '../fetch/page-fetcher.js';

/**
 * Characters of a page's title shown at most: every piece of a page repeats it, and a page's `<title>` of 160,000
 * characters took each piece's whole budget from the content.
 */
const maxTitleCharacters = 200;

/** A title cut to `maxTitleCharacters`, never in a surrogate pair, with an ellipsis when cut. */
function shortTitle(title: string): string {
  if (title.length <= maxTitleCharacters) return title;
  const end = /[\uD800-\uDBFF]/.test(title.charAt(maxTitleCharacters - 1))
    ? maxTitleCharacters - 1
    : maxTitleCharacters;
  return `${title.slice(0, end)}…`;
}

/** The `fetch_url` tool: fetches a public web page as Markdown, in pieces, under the SSRF guard. */
export function fetchUrl(fetcher: PageFetcher) {
  return defineTool({
    name: 'fetch_url',
    title: 'Fetch a web page',
    description:
      'Fetch a public http(s) URL and return its main content as Markdown (HTML) or as text (plain text, JSON). ' +
      'Long pages come in pieces: call again with start_index to continue. raw=true returns the HTML itself.',
    input: z.object({
      url: z.string().min(1).max(4000).describe('Absolute http:// or https:// URL'),
      max_length: z
        .number()
        .int()
        .min(100)
        .max(100_000)
        .optional()
        .describe('Characters to return (default 8000, at most 100000)'),
      start_index: z.number().int().min(0).optional().describe('Character to start at, for the next piece (default 0)'),
      raw: z.boolean().optional().describe('Return the page as received instead of Markdown'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: true },
    async handler({ url, max_length = 8000, start_index = 0, raw = false }, { signal }) {
      const page = await fetcher.fetchPage(url, { raw, signal });
      const total = page.content.length;
      const piece = page.content.slice(start_index, start_index + max_length);
      const end = start_index + piece.length;
      const header = [
        `URL: ${page.url}`,
        ...(page.title ? [`Title: ${shortTitle(page.title.replace(/\s+/g, ' '))}`] : []),
      ];
      let body: string;
      if (start_index >= total && total > 0) {
        body = `[The page has ${total} characters; start_index ${start_index} is past its end.]`;
      } else if (total === 0) {
        body = '[The page has no readable text.]';
      } else {
        body = piece;
        if (end < total) {
          body += `\n\n[Showing characters ${start_index}-${end} of ${total}. Call fetch_url with start_index=${end} to continue.]`;
        }
      }
      if (page.truncated) body += '\n[The page was larger than the download cap; the end of it was not fetched.]';
      return `${header.join('\n')}\n\n${body}`;
    },
  });
}
