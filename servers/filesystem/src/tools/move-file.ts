import { link, rename, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import { isInside } from '../confinement/containment.js';
import type { ToolDependencies } from '../dependencies.js';

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
        // Both ends are reached through their parents' verified descriptors, so a parent swapped for a link after
        // the checks cannot move anything into or out of the roots.
        await scope.throughDirectory(path.dirname(from.path), (fromVia) =>
          scope.throughDirectory(to.directory, async (toVia) => {
            const source = `${fromVia}/${path.basename(from.path)}`;
            const target = `${toVia}/${path.basename(to.path)}`;
            if (!from.stats.isFile()) return rename(source, target);
            // link() fails when the destination appeared meanwhile, so a racing file is never replaced.
            const linked = await link(source, target).then(
              () => true,
              (error: NodeJS.ErrnoException) => {
                // Filesystems without hard links: fall back to a plain rename.
                if (['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK'].includes(error.code ?? '')) return false;
                throw error;
              },
            );
            if (linked) await unlink(source);
            else await rename(source, target);
          }),
        );
      } catch (error) {
        if (ToolError.isInstance(error)) throw error;
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw new ToolError(`Destination already exists: ${destination}.`);
        if (code === 'EXDEV') throw new ToolError(`Cannot move ${source} to another filesystem (${destination}).`);
        throw new ToolError(`Cannot move ${source} to ${destination}: ${code ?? String(error)}.`);
      }
      return `Successfully moved ${source} to ${destination}`;
    },
  });
}
