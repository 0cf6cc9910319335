import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { reading } from '../loaded-on-first-use.js';

/** Characters printed around one file's contents at most, besides its path: `:\n`, the note, the separator. */
const aroundEachFile = 120;
/** Characters every file shown shows at least, however many share the budget. */
const minimumShare = 100;
/** Characters of the note on the files left out, at most, with its separator. */
const notShownNote = 200;
const separator = '\n---\n';

/** read_multiple_files: several text files at once; a file that fails reports its error without failing the rest. */
export function readMultipleFiles(dependencies: ToolDependencies) {
  return defineTool({
    name: 'read_multiple_files',
    title: 'Read Multiple Files',
    description:
      'Read several text files inside the allowed directories at once. Each file comes back under its path; a file ' +
      'that cannot be read shows its error without stopping the others. The read budget is shared between the files.',
    input: z.object({
      paths: z
        .array(z.string())
        .min(1)
        .max(100)
        .describe('File paths, absolute or relative to the first allowed directory'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler({ paths }, context) {
      const { readLines } = await reading();
      const scope = await dependencies.guard.scope(context);
      const budget = dependencies.limits.readBudget;
      // The files shown, from the first: each with its path, what is printed around it and at least its minimum share
      // of content, and room for the note on the files left out when some are. A hundred paths of 1,000 characters
      // pass the budget on their own: the files after those that fit are counted in that note, not quoted.
      let count = 0;
      let around = 0;
      for (const requested of paths) {
        const left = count + 1 < paths.length ? notShownNote : 0;
        const cost = requested.length + aroundEachFile;
        if (around + cost + (count + 1) * minimumShare + left > budget) break;
        around += cost;
        count++;
      }
      const reserve = count < paths.length ? notShownNote : 0;
      // Each file's share of the budget, after what the answer prints around the contents (its path, its note, the
      // separator): the shares and that together stay within the budget, so no file loses its note to a cut.
      const share = count > 0 ? Math.floor((budget - around - reserve) / count) : 0;
      const results = await Promise.all(
        paths.slice(0, count).map(async (requested) => {
          try {
            const file = await scope.openFile(requested);
            try {
              const read = await readLines(file.handle, {
                budget: share,
                signal: context.signal,
                size: file.stats.size,
              });
              const note = read.more
                ? `\n[truncated: showed lines 1-${read.lastLine}; read the rest with read_text_file offset=${read.lastLine + 1}.]`
                : '';
              return `${requested}:\n${read.text}${note}\n`;
            } finally {
              await file.handle.close();
            }
          } catch (error) {
            if (!ToolError.isInstance(error)) throw error;
            return `${requested}: Error - ${error.message}`;
          }
        }),
      );
      // An error quotes its path once more: the files are joined while they fit, and the rest join those not shown.
      const shown: string[] = [];
      let length = 0;
      for (const result of results) {
        const cost = result.length + (shown.length > 0 ? separator.length : 0);
        if (length + cost + (shown.length + 1 < paths.length ? notShownNote : 0) > budget) break;
        shown.push(result);
        length += cost;
      }
      if (shown.length < paths.length) {
        shown.push(
          `[not shown: files ${shown.length + 1}-${paths.length} of the ${paths.length} asked for; with their paths they would pass the ${budget.toLocaleString('en-US')}-character read budget. Ask for fewer files at a time.]`,
        );
      }
      return shown.join(separator);
    },
  });
}
