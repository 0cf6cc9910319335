import { type Dirent, fstatSync, lstatSync, readdirSync, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ToolError } from '@mcpkit/server-kit';
import { descriptorPaths } from '../confinement/containment.js';
import { describeFilesystemError } from '../confinement/filesystem-errors.js';
import type { Scope } from '../confinement/scope.js';
import { type EntryKind, kindOf } from './walk.js';

/** One entry of a listed directory; `stats` are the entry's own (a link's, not its target's). */
export interface ListedEntry {
  name: string;
  kind: EntryKind;
  stats?: Stats;
}

/** Milliseconds of synchronous `lstat` calls before the listing lets the event loop run. */
const sliceMs = 10;

/**
 * Directories up to this size (as their own stats report it: about 3,500 entries of short names on ext4) are read
 * with one synchronous call, a millisecond or two; larger ones, and those that report no size (procfs, some FUSE
 * mounts), are read on libuv's threads. Either way the names come back sorted by libuv (`scandir`).
 */
const synchronousListingBytes = 128 * 1024;

/** Lets the event loop run once the current slice is used up; throws once the request was cancelled. */
class Slices {
  private start = performance.now();
  private readonly signal: AbortSignal | undefined;

  constructor(signal: AbortSignal | undefined) {
    this.signal = signal;
  }

  private calls = 0;

  /**
   * True when the slice is used up: then `pause()` before going on. Cheap enough to call per entry: the clock is read
   * every 32 calls, and there is no await unless a pause is due.
   */
  due(): boolean {
    return ++this.calls % 32 === 0 && performance.now() - this.start > sliceMs;
  }

  async pause(): Promise<void> {
    await nextTurn();
    if (this.signal?.aborted) throw new ToolError('The request was cancelled.');
    this.start = performance.now();
  }
}

/** Takes the entries' own stats from `from` on until the slice is used up; returns where it stopped. */
function statUntilDue(via: string, entries: ListedEntry[], from: number, slices: Slices): number {
  for (let index = from; index < entries.length; ) {
    const entry = entries[index++] as ListedEntry;
    try {
      entry.stats = lstatSync(`${via}/${entry.name}`);
    } catch {
      // Vanished since the listing: shown without a size, as before.
    }
    if (slices.due()) return index;
  }
  return entries.length;
}

/**
 * Lists one directory inside the roots, in name order. The directory is opened and checked by descriptor and read
 * through it, so a directory swapped for a link after the check is not listed. Ordinary directories are read, and
 * the entries' own stats (with `stats`) taken, with synchronous calls through the descriptor: a thread-pool round
 * trip per call cost more than the calls themselves. The stats go in slices of a few milliseconds that yield to the
 * event loop, so a huge directory cannot hold it.
 */
export async function listDirectoryEntries(
  scope: Scope,
  requested: string,
  options: { stats?: boolean; signal?: AbortSignal } = {},
): Promise<{ path: string; entries: ListedEntry[] }> {
  const real = await scope.directory(requested);
  const handle = await scope.openDirectory(real);
  const slices = new Slices(options.signal);
  try {
    const via = descriptorPaths ? `/proc/self/fd/${handle.fd}` : real;
    let dirents: Dirent[];
    try {
      const size = fstatSync(handle.fd).size;
      dirents =
        size > 0 && size <= synchronousListingBytes
          ? readdirSync(via, { withFileTypes: true })
          : await readdir(via, { withFileTypes: true });
    } catch (error) {
      throw new ToolError(`${requested} ${describeFilesystemError(error)}.`);
    }
    const entries: ListedEntry[] = dirents.map((dirent) => ({ name: dirent.name, kind: kindOf(dirent) }));
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    if (!options.stats) return { path: real, entries };
    for (let next = 0; next < entries.length; ) {
      next = statUntilDue(via, entries, next, slices);
      if (next < entries.length) await slices.pause();
    }
    return { path: real, entries };
  } finally {
    await handle.close();
  }
}

/** The label the official server's listings use, plus `[LINK]` and `[OTHER]` for what it mislabels as files. */
export function kindLabel(kind: EntryKind): string {
  return kind === 'directory' ? '[DIR]' : kind === 'file' ? '[FILE]' : kind === 'symlink' ? '[LINK]' : '[OTHER]';
}
