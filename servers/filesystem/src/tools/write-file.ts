import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { editing } from '../loaded-on-first-use.js';

/** write_file: creates or replaces a whole file, atomically, never through a symlink. */
export function writeFile(dependencies: ToolDependencies) {
  return defineTool({
    name: 'write_file',
    title: 'Write File',
    description:
      'Create a new file or completely overwrite an existing one with new content (UTF-8), inside the allowed ' +
      'directories. The write is atomic. The parent directory must exist; symbolic links are never written through.',
    input: z.object({
      path: z.string().describe('File path, absolute or relative to the first allowed directory'),
      content: z.string().describe('The whole new content of the file'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async handler({ path, content }, context) {
      const { writeAtomically } = await editing();
      const scope = await dependencies.guard.scope(context);
      const target = await scope.writeTarget(path);
      await writeAtomically(scope, target, content, path);
      return `Successfully wrote to ${path}`;
    },
  });
}
