import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { reading } from '../loaded-on-first-use.js';

/** list_directory_with_sizes: one directory's entries with sizes and totals, sorted by name or size. */
export function listDirectoryWithSizes(dependencies: ToolDependencies) {
  return defineTool({
    name: 'list_directory_with_sizes',
    title: 'List Directory with Sizes',
    description:
      'List a directory inside the allowed directories with each file size, sorted by name or by size (largest ' +
      'first), followed by totals. Links are shown as links; their targets are not followed.',
    input: z.object({
      path: z.string().describe('Directory path, absolute or relative to the first allowed directory'),
      sortBy: z.enum(['name', 'size']).optional().default('name').describe('Sort entries by name or size'),
      cursor: z.string().optional().describe('The cursor from a previous page'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler({ path, sortBy, cursor }, context) {
      const { budgetedPage, formatSize, kindLabel, listDirectoryEntries } = await reading();
      const scope = await dependencies.guard.scope(context);
      const { entries } = await listDirectoryEntries(scope, path, { stats: true, signal: context.signal });
      const sizeOf = (entry: (typeof entries)[number]) => (entry.kind === 'directory' ? 0 : (entry.stats?.size ?? 0));
      if (sortBy === 'size') entries.sort((left, right) => sizeOf(right) - sizeOf(left));
      // Pages end at the page size or the read budget, whichever comes first (names run to 255 characters).
      const page = budgetedPage(
        entries,
        cursor,
        dependencies.limits.pageSize,
        dependencies.limits.readBudget - 500,
        (entry) =>
          `${kindLabel(entry.kind)} ${entry.name.padEnd(30)} ${entry.kind === 'directory' ? '' : formatSize(sizeOf(entry)).padStart(10)}`,
      );
      const { lines } = page;
      const shown = lines.length;
      const files = entries.filter((entry) => entry.kind !== 'directory').length;
      const total = entries.reduce((sum, entry) => sum + sizeOf(entry), 0);
      lines.push(
        '',
        `Total: ${files} files, ${entries.length - files} directories`,
        `Combined size: ${formatSize(total)}`,
      );
      if (page.nextCursor) {
        lines.push(
          `[truncated: showed ${shown} of ${entries.length} entries. Call list_directory_with_sizes with cursor="${page.nextCursor}" for more.]`,
        );
      }
      return lines.join('\n');
    },
  });
}
