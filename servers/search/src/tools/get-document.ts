import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ConcurrencyLimit } from '../concurrency-limit.js';
import { lineWindow } from '../line-window.js';
import { looksBinary } from '../local-index/text-extraction.js';
import type { SearchIndex } from '../search-index.js';

/** Files larger than this are not read whole by get_document. */
const maxReadBytes = 16 * 1024 * 1024;
/**
 * Characters of lines shown at most, twice the default budget of an answer (which cuts the rest anyway): 2000 lines
 * of 8 KB were decoded and joined whole, 16 MB of strings per call, for an answer of 100,000 characters.
 */
const maxShownCharacters = 200_000;

/**
 * The `get_document` tool: reads a document of the indexed directories by lines. Each call holds the whole file while
 * it counts its lines, so calls take turns through `wholeFileReads`.
 */
export function getDocument(index: SearchIndex, wholeFileReads: ConcurrencyLimit) {
  return defineTool({
    name: 'get_document',
    title: 'Read a local document',
    description:
      'Read a text document inside the indexed directories by lines, with line numbers. Use the path:line of a ' +
      'search result: offset is the first line to show (1-based), limit how many lines.',
    input: z.object({
      path: z.string().min(1).describe('Absolute path, or relative to the first indexed directory'),
      offset: z.number().int().min(1).optional().describe('First line to show, 1-based (default 1)'),
      limit: z.number().int().min(1).max(2000).optional().describe('Lines to show (default 200, at most 2000)'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    truncationHint: 'Call get_document again with a later offset or a smaller limit.',
    handler: ({ path, offset = 1, limit = 200 }, { signal }) =>
      wholeFileReads.run(async () => {
        const { path: file, bytes } = await index.readDocument(path, {
          maxBytes: maxReadBytes,
          tooLarge: (requested) =>
            `${requested} is larger than ${maxReadBytes / 1024 / 1024} MB; it is not read by get_document.`,
          signal,
        });
        if (looksBinary(bytes)) throw new ToolError(`${path} is a binary file, not text.`);
        const { lines, total } = await lineWindow(bytes, { offset, limit, maxCharacters: maxShownCharacters, signal });
        if (offset > total) {
          throw new ToolError(`${path} has ${total} lines; pass an offset of at most ${total}.`);
        }
        const end = offset - 1 + lines.length;
        const width = String(end).length;
        const body = lines.map((line, index) => `${String(offset + index).padStart(width)}  ${line}`).join('\n');
        const more = end < total ? `\n[Lines ${offset}-${end} of ${total}. Continue with offset=${end + 1}.]` : '';
        return `${file} (lines ${offset}-${end} of ${total})\n${body}${more}`;
      }, signal),
  });
}
