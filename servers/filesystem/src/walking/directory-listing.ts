import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { descriptorPaths } from '../confinement/containment.js';
import { attempt } from '../confinement/filesystem-errors.js';
import type { Scope } from '../confinement/scope.js';
import { type EntryKind, kindOf } from './walk.js';

/** One entry of a listed directory; `stats` are the entry's own (a link's, not its target's). */
export interface ListedEntry {
  name: string;
  kind: EntryKind;
  stats?: Stats;
}

/**
 * Lists one directory inside the roots, in name order. The directory is opened and checked by descriptor and read
 * through it, so a directory swapped for a link after the check is not listed.
 */
export async function listDirectoryEntries(
  scope: Scope,
  requested: string,
  options: { stats?: boolean } = {},
): Promise<{ path: string; entries: ListedEntry[] }> {
  const real = await scope.directory(requested);
  const handle = await scope.openDirectory(real);
  try {
    const via = descriptorPaths ? `/proc/self/fd/${handle.fd}` : real;
    const dirents = await attempt(requested, readdir(via, { withFileTypes: true }));
    dirents.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    const entries = await Promise.all(
      dirents.map(async (dirent): Promise<ListedEntry> => {
        const kind = kindOf(dirent);
        if (!options.stats) return { name: dirent.name, kind };
        const stats = await lstat(`${via}/${dirent.name}`).catch(() => undefined);
        return { name: dirent.name, kind, ...(stats ? { stats } : {}) };
      }),
    );
    return { path: real, entries };
  } finally {
    await handle.close();
  }
}

/** The label the official server's listings use, plus `[LINK]` and `[OTHER]` for what it mislabels as files. */
export function kindLabel(kind: EntryKind): string {
  return kind === 'directory' ? '[DIR]' : kind === 'file' ? '[FILE]' : kind === 'symlink' ? '[LINK]' : '[OTHER]';
}
