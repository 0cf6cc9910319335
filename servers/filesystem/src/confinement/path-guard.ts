import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Root, ToolError } from '@mcpkit/server-kit';
import { isInside } from './containment.js';
import { describeFilesystemError } from './filesystem-errors.js';
import { type ConfinementOptions, expandHome, Scope } from './scope.js';

/** Where the client's roots come from: a handler context, or anything else that can list them. */
export interface RootsSource {
  roots(): Promise<Root[] | undefined>;
}

/** Real paths of the client's `file://` roots that exist and are directories; the others are skipped. */
async function resolveRoots(roots: readonly Root[]): Promise<string[]> {
  const resolved = await Promise.all(
    roots.map(async (root) => {
      if (!root.uri.startsWith('file://')) return undefined;
      try {
        const real = await realpath(fileURLToPath(root.uri));
        return (await stat(real)).isDirectory() ? real : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  return resolved.filter((directory): directory is string => directory !== undefined);
}

/** The directories both sets allow: for each pair, the deeper one when one contains the other. */
function intersect(configured: readonly string[], roots: readonly string[]): string[] {
  const result = new Set<string>();
  for (const root of roots) {
    for (const directory of configured) {
      if (isInside(directory, root)) result.add(root);
      else if (isInside(root, directory)) result.add(directory);
    }
  }
  return [...result];
}

/**
 * The confinement of the whole server: the configured directories (real paths, resolved once at start) and, per
 * request, the client's roots. With configured directories the client's roots can only narrow them; without any,
 * the client's roots are the allowed set (as in the official server).
 */
export class PathGuard {
  /** The real paths of the directories given at start. */
  readonly configured: readonly string[];
  readonly options: ConfinementOptions;
  private readonly narrowed = new WeakMap<readonly Root[], Promise<Scope>>();
  private readonly fixed: Scope;

  /** Directories given at start that were left out, with why (the official server also skips them). */
  readonly skipped: readonly string[];

  private constructor(configured: readonly string[], options: ConfinementOptions, skipped: readonly string[]) {
    this.configured = configured;
    this.options = options;
    this.skipped = skipped;
    this.fixed = new Scope(configured, options);
  }

  /**
   * Resolves the configured directories to real paths. One that is missing or not a directory is skipped (and listed
   * in `skipped`), as the official server does; when every one given is unusable, this throws.
   */
  static async create(directories: readonly string[], options: ConfinementOptions = {}): Promise<PathGuard> {
    const real: string[] = [];
    const skipped: string[] = [];
    for (const directory of directories) {
      const absolute = path.resolve(expandHome(directory));
      try {
        const resolved = await realpath(absolute);
        if (!(await stat(resolved)).isDirectory()) {
          skipped.push(`Allowed directory ${directory} is not a directory.`);
        } else if (!real.includes(resolved)) {
          real.push(resolved);
        }
      } catch (error) {
        skipped.push(`Allowed directory ${directory} ${describeFilesystemError(error)}.`);
      }
    }
    if (directories.length > 0 && real.length === 0) {
      throw new Error(`None of the allowed directories can be used: ${skipped.join(' ')}`);
    }
    return new PathGuard(real, options, skipped);
  }

  /** The scope for one request: narrowed by the client's current roots, which take effect on the next request. */
  async scope(source?: RootsSource): Promise<Scope> {
    const roots = source ? await source.roots() : undefined;
    if (!roots || roots.length === 0) {
      if (this.configured.length === 0) {
        throw new ToolError(
          'No directory is allowed yet: the server was started without directories and the client offers no roots.',
        );
      }
      return this.fixed;
    }
    let scope = this.narrowed.get(roots);
    if (!scope) {
      scope = this.narrow(roots);
      this.narrowed.set(roots, scope);
    }
    return scope;
  }

  private async narrow(roots: readonly Root[]): Promise<Scope> {
    const real = await resolveRoots(roots);
    const directories = this.configured.length === 0 ? real : intersect(this.configured, real);
    if (directories.length === 0) {
      throw new ToolError(
        `No directory is allowed: the client's roots (${roots.map((root) => root.uri).join(', ')}) ` +
          `do not overlap the server's allowed directories (${this.configured.join(', ') || 'none'}).`,
      );
    }
    return new Scope(directories, this.options);
  }
}
