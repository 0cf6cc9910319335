import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { reading } from '../loaded-on-first-use.js';

/** list_directory: one directory's entries as `[DIR]`/`[FILE]`/`[LINK]` lines, in pages. */
export function listDirectory(dependencies: ToolDependencies) {
  return defineTool({
    name: 'list_directory',
    title: 'List Directory',
    description:
      'List the files and directories in a directory inside the allowed directories, one per line with a [DIR], ' +
      '[FILE] or [LINK] prefix, in name order. Long listings come in pages: pass the cursor from the note to continue.',
    input: z.object({
      path: z.string().describe('Directory path, absolute or relative to the first allowed directory'),
      cursor: z.string().optional().describe('The cursor from a previous page'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler({ path, cursor }, context) {
      const { budgetedPage, kindLabel, listDirectoryEntries } = await reading();
      const scope = await dependencies.guard.scope(context);
      const { entries } = await listDirectoryEntries(scope, path, { signal: context.signal });
      const { limits } = dependencies;
      // Pages end at the page size or the read budget, whichever comes first (names run to 255 characters).
      const page = budgetedPage(
        entries,
        cursor,
        limits.pageSize,
        limits.readBudget - 500,
        (entry) => `${kindLabel(entry.kind)} ${entry.name}`,
      );
      const { lines } = page;
      if (page.nextCursor) {
        lines.push(
          `[truncated: showed ${lines.length} of ${entries.length} entries. Call list_directory with cursor="${page.nextCursor}" for more.]`,
        );
      }
      return lines.length > 0 ? lines.join('\n') : 'The directory is empty.';
    },
  });
}
