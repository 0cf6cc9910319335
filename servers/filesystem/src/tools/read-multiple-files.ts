import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { reading } from '../loaded-on-first-use.js';

/** Characters printed around one file's contents at most, besides its path: `:\n`, the note, the separator. */
const aroundEachFile = 120;
/** Characters every file shows at least, however many share the budget. */
const minimumShare = 100;

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
      // Each file's share of the budget, after what the answer prints around the contents (its path, its note, the
      // separator): the shares and that together stay within the budget, so no file loses its note to a cut.
      const around = paths.reduce((sum, requested) => sum + requested.length + aroundEachFile, 0);
      const share = Math.max(minimumShare, Math.floor((dependencies.limits.readBudget - around) / paths.length));
      const results = await Promise.all(
        paths.map(async (requested) => {
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
      return results.join('\n---\n');
    },
  });
}
