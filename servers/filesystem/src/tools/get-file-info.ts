import { lstatSync, type Stats } from 'node:fs';
import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import { describeFilesystemError } from '../confinement/filesystem-errors.js';
import type { ToolDependencies } from '../dependencies.js';

function typeOf(stats: Stats): string {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  return 'device';
}

/** get_file_info: size, times, type and permissions of a file or directory. */
export function getFileInfo(dependencies: ToolDependencies) {
  return defineTool({
    name: 'get_file_info',
    title: 'Get File Info',
    description:
      'Get metadata of a file or directory inside the allowed directories: size, creation, modification and ' +
      'access times, type, permissions and number of hard links, without reading its content.',
    input: z.object({
      path: z.string().describe('Path, absolute or relative to the first allowed directory'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler({ path }, context) {
      const scope = await dependencies.guard.scope(context);
      const real = await scope.existing(path);
      let stats: Stats;
      try {
        // The real path was just resolved: its own stats, taken synchronously like the confinement's checks.
        stats = lstatSync(real);
      } catch (error) {
        throw new ToolError(`${path} ${describeFilesystemError(error)}.`);
      }
      const info = {
        path: real,
        size: stats.size,
        created: stats.birthtime.toISOString(),
        modified: stats.mtime.toISOString(),
        accessed: stats.atime.toISOString(),
        isDirectory: stats.isDirectory(),
        isFile: stats.isFile(),
        type: typeOf(stats),
        permissions: (stats.mode & 0o777).toString(8).padStart(3, '0'),
        hardLinks: stats.nlink,
      };
      return Object.entries(info)
        .map(([key, value]) => `${key}: ${value}`)
        .join('\n');
    },
  });
}
