import { link, rename, unlink } from 'node:fs/promises';
import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { isInside } from '../paths.js';

/** move_file: moves or renames a file or directory inside the roots; never replaces an existing destination. */
export function moveFile(dependencies: ToolDependencies) {
  return defineTool({
    name: 'move_file',
    title: 'Move File',
    description:
      'Move or rename a file or directory; both paths must be inside the allowed directories. Fails when the ' +
      'destination exists. A symbolic link is moved as a link; its target is not touched.',
    input: z.object({
      source: z.string().describe('The path to move'),
      destination: z.string().describe('The new path; its parent directory must exist'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler({ source, destination }, context) {
      const scope = await dependencies.guard.scope(context);
      const from = await scope.entry(source);
      const to = await scope.writeTarget(destination).catch((error: unknown) => {
        // A destination that is an existing link or directory is still "exists", the clearer sentence.
        if (ToolError.isInstance(error) && /symbolic link|a directory/.test(error.message)) {
          throw new ToolError(`Destination already exists: ${destination}.`);
        }
        throw error;
      });
      if (to.existing) throw new ToolError(`Destination already exists: ${destination}.`);
      if (from.stats.isDirectory() && isInside(from.path, to.path)) {
        throw new ToolError(`Cannot move ${source} into itself (${destination}).`);
      }
      try {
        if (from.stats.isFile()) {
          // link() fails when the destination appeared meanwhile, so a racing file is never replaced.
          const linked = await link(from.path, to.path).then(
            () => true,
            (error: NodeJS.ErrnoException) => {
              // Filesystems without hard links: fall back to a plain rename.
              if (['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK'].includes(error.code ?? '')) return false;
              throw error;
            },
          );
          if (linked) await unlink(from.path);
          else await rename(from.path, to.path);
        } else {
          await rename(from.path, to.path);
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw new ToolError(`Destination already exists: ${destination}.`);
        if (code === 'EXDEV') throw new ToolError(`Cannot move ${source} to another filesystem (${destination}).`);
        throw new ToolError(`Cannot move ${source} to ${destination}: ${code ?? String(error)}.`);
      }
      return `Successfully moved ${source} to ${destination}`;
    },
  });
}
