import { closeSync, constants, fstatSync, openSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import { lstat, mkdir, open, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolError } from '@mcpkit/server-kit';
import { descriptorPaths, isInside, maxPathBytes } from './containment.js';
import { DescriptorFile, type ReadableFile } from './descriptor-file.js';
import { describeFilesystemError } from './filesystem-errors.js';

/** What to do with a regular file that has more than one name (a hard link may share its inode with a file outside). */
export type HardLinkPolicy = 'allow' | 'refuse';

/** How the confinement behaves beyond the allowed directories themselves. */
export interface ConfinementOptions {
  /** `allow` (default) reads hard-linked files; `refuse` refuses to read regular files with more than one link. */
  hardLinks?: HardLinkPolicy;
}

/** A regular file opened for reading after every confinement check passed; close `handle` when done. */
export interface OpenedFile {
  handle: ReadableFile;
  /** The real path of the file. */
  path: string;
  stats: Stats;
}

/** Where a write may land: an existing real parent directory inside the roots and a name that is not a link. */
export interface WriteTarget {
  /** The real path of the parent directory. */
  directory: string;
  /** The final path: the real parent joined with the name. */
  path: string;
  /** The current file at that path, when there is one (always a regular file). */
  existing?: Stats;
}

/** Characters of a path as passed (a `file://` URI percent-encodes up to three characters a byte). */
const maxPathChars = 3 * maxPathBytes;

/** The refusal of a path past the limit: its length in bytes, which the limit counts, and never the path itself. */
function tooLong(pathText: string): ToolError {
  const bytes = Buffer.byteLength(pathText).toLocaleString('en-US');
  const characters = pathText.length.toLocaleString('en-US');
  return new ToolError(
    `The path is ${bytes} bytes long (${characters} characters); a path must be shorter than ${maxPathBytes.toLocaleString('en-US')} bytes on this system. Pass a shorter path, relative to an allowed directory.`,
  );
}

const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Expands a leading `~` to the home directory, as shells do. */
export function expandHome(requested: string): string {
  if (requested === '~') return homedir();
  if (requested.startsWith('~/')) return path.join(homedir(), requested.slice(2));
  return requested;
}

/** The real path of the deepest existing ancestor of an absolute path. */
async function realAncestor(absolute: string): Promise<string> {
  let current = absolute;
  for (;;) {
    try {
      return path.join(await realpath(current), path.relative(current, absolute));
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      current = parent;
    }
  }
}

/** How a sentence names what a path is ("a named pipe (FIFO)", "a directory"). */
function kindPhrase(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a directory';
  return 'a regular file';
}

/**
 * The allowed directories in force for one request: the configured ones, narrowed by the client's roots. Every path
 * a tool touches goes through one of its methods, which resolve every symlink and compare real paths by component.
 */
export class Scope {
  /** The real paths of the allowed directories. */
  readonly directories: readonly string[];
  private readonly options: ConfinementOptions;

  constructor(directories: readonly string[], options: ConfinementOptions = {}) {
    this.directories = directories;
    this.options = options;
  }

  /** True when a real path lies inside one of the allowed directories. */
  contains(realPath: string): boolean {
    return this.directories.some((directory) => isInside(directory, realPath));
  }

  /** The allowed directory that holds a real path inside the scope (the deepest, when they nest). */
  directoryOf(realPath: string): string {
    const holders = this.directories.filter((directory) => isInside(directory, realPath));
    return holders.sort((left, right) => right.length - left.length)[0] ?? realPath;
  }

  /**
   * The absolute, normalised form of what the model passed: `~` expanded, relative paths against the first root. A
   * path longer than the system's limit is refused here, before any system call: looking for the deepest existing
   * ancestor of tens of thousands of missing components took one call per component, and quoting it back megabytes.
   */
  absolute(requested: string): string {
    if (requested.length > maxPathChars) throw tooLong(requested);
    if (requested.includes('\0')) throw new ToolError('The path contains a NUL character; pass a plain path.');
    const expanded = expandHome(requested.trim() === '' ? '.' : requested);
    let absolute: string;
    if (path.isAbsolute(expanded)) absolute = path.resolve(expanded);
    else if (expanded.startsWith('file://')) {
      try {
        absolute = path.resolve(fileURLToPath(expanded));
      } catch {
        throw new ToolError(`${requested} is not a file URI of this machine; pass a plain path.`);
      }
    } else absolute = path.resolve(this.directories[0] ?? process.cwd(), expanded);
    if (Buffer.byteLength(absolute) >= maxPathBytes) throw tooLong(absolute);
    return absolute;
  }

  private outside(requested: string): ToolError {
    return new ToolError(
      `Access denied: ${requested} is outside the allowed directories (${this.directories.join(', ')}), ` +
        'or reaches outside them through a symbolic link.',
    );
  }

  /** Resolves an existing path to its real path and checks it is inside; refuses dangling or escaping links. */
  async existing(requested: string): Promise<string> {
    const absolute = this.absolute(requested);
    let real: string;
    try {
      real = realpathSync.native(absolute);
    } catch (error) {
      const link = await lstat(absolute).catch(() => undefined);
      if (link?.isSymbolicLink()) {
        const why = (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'in a loop' : 'whose target does not exist';
        throw new ToolError(`Refused: ${requested} is a symbolic link ${why}.`);
      }
      // A missing path must not reveal whether something exists behind a link that leaves the roots.
      if (!this.contains(await realAncestor(absolute))) throw this.outside(requested);
      throw new ToolError(`${requested} ${describeFilesystemError(error)}.`);
    }
    if (!this.contains(real)) throw this.outside(requested);
    return real;
  }

  /** The real path of an existing directory inside the roots. */
  async directory(requested: string): Promise<string> {
    const real = await this.existing(requested);
    const stats = statNow(requested, real);
    if (!stats.isDirectory()) throw new ToolError(`${requested} is ${kindPhrase(stats)}, not a directory.`);
    return real;
  }

  /**
   * Opens an existing regular file for reading. The open does not follow a final symlink and does not block on a
   * FIFO; the descriptor is then checked again (its type, and its real path on Linux), so a path swapped between the
   * check and the open is refused instead of read. The checks are synchronous system calls (a few microseconds each
   * on a local disk, as the walks make them); only the content is read on libuv's threads.
   */
  async openFile(requested: string): Promise<OpenedFile> {
    const real = await this.existing(requested);
    // Refuse special files before opening them: opening some devices has effects of its own.
    this.assertRegular(requested, statNow(requested, real));
    let fd: number;
    try {
      fd = openSync(real, readFlags);
    } catch (error) {
      throw new ToolError(`${requested} ${describeFilesystemError(error)}.`);
    }
    try {
      const stats = fstatSync(fd);
      this.assertRegular(requested, stats);
      if (this.options.hardLinks === 'refuse' && stats.nlink > 1) {
        throw new ToolError(
          `Refused: ${requested} has ${stats.nlink} hard links and the server refuses hard-linked files (--refuse-hard-links).`,
        );
      }
      this.verifyDescriptor(fd, real, requested, stats);
      return { handle: new DescriptorFile(fd), path: real, stats };
    } catch (error) {
      closeQuietly(fd);
      throw error;
    }
  }

  private assertRegular(requested: string, stats: Stats): void {
    if (stats.isFile()) return;
    throw new ToolError(
      stats.isDirectory()
        ? `${requested} is a directory; use list_directory for directories.`
        : `Refused: ${requested} is ${kindPhrase(stats)}, not a regular file, and reading it could block the server.`,
    );
  }

  /**
   * Checks that an open descriptor refers to something inside the roots: on Linux by the descriptor's own real path;
   * elsewhere `opened` (the real path that was opened) must still resolve inside to the same inode.
   */
  verifyDescriptor(fd: number, opened: string, requested: string, stats?: Stats): void {
    if (descriptorPaths) {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (!this.contains(target)) throw this.outside(requested);
      return;
    }
    let real = '';
    try {
      real = realpathSync.native(opened);
    } catch {}
    if (!this.contains(real)) throw this.outside(requested);
    const now = statNow(requested, real);
    if (stats && (now.ino !== stats.ino || now.dev !== stats.dev)) throw this.outside(requested);
  }

  /**
   * Where a file may be written: the parent must exist inside the roots; the final name must not be a symlink, a
   * directory or a special file. Writes then create a temporary file exclusively and rename it over the name.
   */
  async writeTarget(requested: string): Promise<WriteTarget> {
    const absolute = this.absolute(requested);
    const name = path.basename(absolute);
    if (absolute === path.parse(absolute).root) throw new ToolError(`Refused: ${requested} is a filesystem root.`);
    let directory: string;
    try {
      directory = await realpath(path.dirname(absolute));
    } catch (error) {
      if (!this.contains(await realAncestor(absolute))) throw this.outside(requested);
      throw new ToolError(
        `The parent directory of ${requested} ${describeFilesystemError(error)}; create it first with create_directory.`,
      );
    }
    if (!this.contains(directory)) throw this.outside(requested);
    const target = path.join(directory, name);
    if (this.directories.includes(target)) throw new ToolError(`Refused: ${requested} is an allowed directory itself.`);
    const current = await lstat(target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new ToolError(`${requested} ${describeFilesystemError(error)}.`);
    });
    if (current?.isSymbolicLink()) {
      throw new ToolError(`Refused: ${requested} is a symbolic link, and writes never follow links; write its target.`);
    }
    if (current && !current.isFile()) throw new ToolError(`Refused: ${requested} is ${kindPhrase(current)}.`);
    return { directory, path: target, ...(current ? { existing: current } : {}) };
  }

  /**
   * An existing entry itself, without following a final symlink (a move renames the link, not its target). The
   * parent's real path must be inside the roots.
   */
  async entry(requested: string): Promise<{ path: string; stats: Stats }> {
    const absolute = this.absolute(requested);
    let directory: string;
    try {
      directory = await realpath(path.dirname(absolute));
    } catch (error) {
      if (!this.contains(await realAncestor(absolute))) throw this.outside(requested);
      throw new ToolError(`${requested} ${describeFilesystemError(error)}.`);
    }
    const target = path.join(directory, path.basename(absolute));
    if (!this.contains(directory) || !this.contains(target)) throw this.outside(requested);
    if (this.directories.includes(target)) throw new ToolError(`Refused: ${requested} is an allowed directory itself.`);
    try {
      return { path: target, stats: await lstat(target) };
    } catch (error) {
      throw new ToolError(`${requested} ${describeFilesystemError(error)}.`);
    }
  }

  /**
   * Creates a directory and its missing parents, one component at a time from the deepest existing ancestor, so a
   * symlink planted on the way is never followed out of the roots. Returns the real path.
   */
  async createDirectory(requested: string): Promise<string> {
    const absolute = this.absolute(requested);
    const missing: string[] = [];
    let ancestor = absolute;
    let real: string | undefined;
    while (real === undefined) {
      try {
        real = await realpath(ancestor);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
          throw new ToolError(`${requested} ${describeFilesystemError(error)}.`);
        const link = await lstat(ancestor).catch(() => undefined);
        if (link?.isSymbolicLink()) {
          throw new ToolError(`Refused: ${ancestor} is a symbolic link whose target does not exist.`);
        }
        const parent = path.dirname(ancestor);
        if (parent === ancestor) throw new ToolError(`${requested} cannot be created.`);
        missing.unshift(path.basename(ancestor));
        ancestor = parent;
      }
    }
    if (!this.contains(real)) throw this.outside(requested);
    const existing = statNow(requested, real);
    if (!existing.isDirectory())
      throw new ToolError(`Refused: ${ancestor} is ${kindPhrase(existing)}, not a directory.`);
    let handle: { fd: number; close(): Promise<void> } = await this.openDirectory(real);
    let current = real;
    try {
      for (const name of missing) {
        // Each level is made and opened through its parent's verified descriptor: a link planted on the way is
        // neither followed by mkdir nor opened (O_NOFOLLOW), so nothing is created outside the roots.
        const via = descriptorPaths ? `/proc/self/fd/${handle.fd}` : current;
        try {
          await mkdir(`${via}/${name}`);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
            throw new ToolError(`${requested} ${describeFilesystemError(error)}.`);
        }
        const next = await open(`${via}/${name}`, directoryFlags).catch(() => {
          throw new ToolError(`Refused: ${path.join(current, name)} is not a directory (it may be a symbolic link).`);
        });
        await handle.close();
        handle = next;
        current = path.join(current, name);
      }
    } finally {
      await handle.close();
    }
    return current;
  }

  /**
   * Runs `use` with a path prefix that reaches the real directory `real` through an open, verified descriptor (on
   * Linux `/proc/self/fd/N`), so a directory swapped for a link after the check cannot redirect what `use` does.
   */
  async throughDirectory<T>(real: string, use: (via: string) => Promise<T>): Promise<T> {
    const handle = await this.openDirectory(real);
    try {
      return await use(descriptorPaths ? `/proc/self/fd/${handle.fd}` : real);
    } finally {
      await handle.close();
    }
  }

  /** Opens a directory of the roots without following a final link, checked by descriptor; for walks and listings. */
  async openDirectory(real: string): Promise<DescriptorFile> {
    let fd: number;
    try {
      fd = openSync(real, directoryFlags);
    } catch (error) {
      throw new ToolError(`${real} ${describeFilesystemError(error)}.`);
    }
    try {
      this.verifyDescriptor(fd, real, real);
      return new DescriptorFile(fd);
    } catch (error) {
      closeQuietly(fd);
      throw error;
    }
  }
}

/** `stat` of a path, its failure as a sentence about `requested`. */
function statNow(requested: string, real: string): Stats {
  try {
    return statSync(real);
  } catch (error) {
    throw new ToolError(`${requested} ${describeFilesystemError(error)}.`);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {}
}
