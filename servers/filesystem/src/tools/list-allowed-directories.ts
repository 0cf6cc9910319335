import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';

/** list_allowed_directories: the directories in force for this client (after its roots narrowed them). */
export function listAllowedDirectories(dependencies: ToolDependencies) {
  return defineTool({
    name: 'list_allowed_directories',
    title: 'List Allowed Directories',
    description:
      'List the directories this server may access (their subdirectories are accessible too). Call it first to ' +
      'know where paths may point; relative paths resolve against the first one.',
    input: z.object({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler(_args, context) {
      const scope = await dependencies.guard.scope(context);
      return `Allowed directories:\n${scope.directories.join('\n')}`;
    },
  });
}
