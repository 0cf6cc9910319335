import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import { readConfinedFile } from '../confined-file.js';
import type { LocalIndex } from '../index/local-index.js';
import { looksBinary } from '../index/text-extraction.js';

/** Files larger than this are not read whole by get_document. */
const maxReadBytes = 16 * 1024 * 1024;

/** The `get_document` tool: reads a document of the indexed directories by lines. */
export function getDocumentTool(index: LocalIndex) {
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
    async handler({ path, offset = 1, limit = 200 }, { signal }) {
      const { path: file, bytes } = await readConfinedFile(index.directories, path, {
        maxBytes: maxReadBytes,
        tooLarge: (requested) =>
          `${requested} is larger than ${maxReadBytes / 1024 / 1024} MB; it is not read by get_document.`,
        signal,
      });
      if (looksBinary(bytes)) throw new ToolError(`${path} is a binary file, not text.`);
      const lines = bytes.toString('utf8').split(/\r?\n/);
      if (offset > lines.length) {
        throw new ToolError(`${path} has ${lines.length} lines; pass an offset of at most ${lines.length}.`);
      }
      const end = Math.min(lines.length, offset - 1 + limit);
      const width = String(end).length;
      const body = lines
        .slice(offset - 1, end)
        .map((line, index) => `${String(offset + index).padStart(width)}  ${line}`)
        .join('\n');
      const more =
        end < lines.length ? `\n[Lines ${offset}-${end} of ${lines.length}. Continue with offset=${end + 1}.]` : '';
      return `${file} (lines ${offset}-${end} of ${lines.length})\n${body}${more}`;
    },
  });
}
