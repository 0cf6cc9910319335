import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { reading } from '../loaded-on-first-use.js';

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
      const share = Math.max(1_000, Math.floor(dependencies.limits.readBudget / paths.length));
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
