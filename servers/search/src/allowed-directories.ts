import { realpathSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { KitError, ToolError } from '@mcpkit/server-kit';

/** A path resolved inside the allowed directories: its real path and the directory that contains it. */
export interface ConfinedPath {
  path: string;
  root: string;
}

/** The one place that decides whether a path is inside the directories the server was given. */
export class AllowedDirectories {
  /** The real paths of the allowed directories, in the order given. */
  readonly roots: readonly string[];

  /**
   * Resolves each directory to its real path, refusing a missing one; with `realPaths`, takes them as they are (the
   * real paths of an AllowedDirectories made elsewhere, such as another thread's), so that nothing swapped since can
   * move them and a folder removed since does not refuse the others.
   */
  constructor(directories: readonly string[], options: { realPaths?: boolean } = {}) {
    if (directories.length === 0)
      throw new KitError('INVALID_OPTIONS', 'The search server needs at least one directory.');
    if (options.realPaths) {
      this.roots = [...directories];
      return;
    }
    const roots: string[] = [];
    for (const directory of directories) {
      let real: string;
      try {
        real = realpathSync(resolve(directory));
      } catch {
        throw new KitError('INVALID_OPTIONS', `The directory ${directory} does not exist.`);
      }
      if (!statSync(real).isDirectory()) throw new KitError('INVALID_OPTIONS', `${directory} is not a directory.`);
      if (!roots.includes(real)) roots.push(real);
    }
    this.roots = roots;
  }

  /** `directories` as they are when resolved already, else each folder resolved now (refused when missing). */
  static of(directories: readonly string[] | AllowedDirectories): AllowedDirectories {
    return directories instanceof AllowedDirectories ? directories : new AllowedDirectories(directories);
  }

  /** The allowed directory containing `path` (already real and absolute), or undefined when none does. */
  rootOf(path: string): string | undefined {
    return this.roots.find((root) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep));
  }

  /** Resolves a path given by the model (absolute, or relative to the first directory) to a real path inside. */
  async resolveExisting(path: string): Promise<ConfinedPath> {
    const first = this.roots[0] as string;
    const absolute = isAbsolute(path) ? path : resolve(first, path);
    let real: string;
    try {
      real = await realpath(absolute);
    } catch {
      throw new ToolError(`${path} does not exist in the indexed directories; search for it or check the spelling.`);
    }
    const root = this.rootOf(real);
    if (!root) {
      throw new ToolError(
        `${path} is outside the indexed directories (${this.roots.join(', ')}); use a path inside one of them.`,
      );
    }
    return { path: real, root };
  }

  /** How `path` reads relative to its allowed directory, for ranking and display. */
  relativeToRoot(path: string, root: string): string {
    return relative(root, path).split(sep).join('/');
  }
}
