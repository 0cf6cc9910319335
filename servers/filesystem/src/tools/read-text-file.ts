import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { reading } from '../loaded-on-first-use.js';

const lineCount = z.number().int().positive();

/** The arguments of read_text_file (and of its deprecated alias read_file). */
const input = z.object({
  path: z.string().describe('File path, absolute or relative to the first allowed directory'),
  head: lineCount.optional().describe('If provided, returns only the first N lines of the file'),
  tail: lineCount.optional().describe('If provided, returns only the last N lines of the file'),
  offset: lineCount.optional().describe('First line to return, 1-based (with limit: a line range)'),
  limit: lineCount.optional().describe('How many lines to return from offset'),
});

/** read_text_file: a UTF-8 file, whole or a window of lines, held to the read budget with a note to continue. */
export function readTextFile(dependencies: ToolDependencies, name = 'read_text_file') {
  return defineTool({
    name,
    title: name === 'read_file' ? 'Read File (deprecated)' : 'Read Text File',
    description:
      (name === 'read_file' ? 'Deprecated: use read_text_file. ' : '') +
      'Read a UTF-8 text file inside the allowed directories. Use head or tail for the first or last N lines, or ' +
      'offset and limit for a line range. Large files are cut at a line end with a note saying how to continue.',
    input,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler(args, context) {
      const { readLines } = await reading();
      if (args.head !== undefined && args.tail !== undefined) {
        throw new ToolError('Pass head or tail, not both.');
      }
      if (args.tail !== undefined && (args.offset !== undefined || args.limit !== undefined)) {
        throw new ToolError('tail cannot be combined with offset or limit; use offset and limit for a range.');
      }
      const scope = await dependencies.guard.scope(context);
      const file = await scope.openFile(args.path);
      try {
        const budget = dependencies.limits.readBudget;
        const read = await readLines(file.handle, { ...args, budget, signal: context.signal, size: file.stats.size });
        if (!read.more) return read.text;
        if (args.tail !== undefined) {
          const first = read.firstLineCut ? ', the first of them only its end (cut at the budget)' : '';
          return `${read.text}\n[truncated: the last ${args.tail} lines exceed the ${budget.toLocaleString('en-US')}-character budget; showed the final ones${first}. Use offset and limit for the rest.]`;
        }
        const windowEnded = !read.budgetCut;
        if (windowEnded) return read.text;
        const size = file.stats.size.toLocaleString('en-US');
        const limit = budget.toLocaleString('en-US');
        if (read.lastLine < read.firstLine) {
          // One line longer than the whole budget: only its start can be shown; offer to skip past it.
          return `${read.text}\n[truncated: line ${read.firstLine} alone is longer than the ${limit}-character budget; showed its start. Call read_text_file with offset=${read.firstLine + 1} for the lines after it.]`;
        }
        return `${read.text}\n[truncated: showed lines ${read.firstLine}-${read.lastLine} of a ${size}-byte file (budget ${limit} characters). Call read_text_file with offset=${read.lastLine + 1} to continue.]`;
      } finally {
        await file.handle.close();
      }
    },
  });
}
