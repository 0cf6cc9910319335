import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';

/** create_directory: creates a directory and its missing parents; succeeds when it already exists. */
export function createDirectory(dependencies: ToolDependencies) {
  return defineTool({
    name: 'create_directory',
    title: 'Create Directory',
    description:
      'Create a directory, with any missing parents, inside the allowed directories. Succeeds silently when the ' +
      'directory already exists.',
    input: z.object({
      path: z.string().describe('Directory path, absolute or relative to the first allowed directory'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async handler({ path }, context) {
      const scope = await dependencies.guard.scope(context);
      await scope.createDirectory(path);
      return `Successfully created directory ${path}`;
    },
  });
}
