import { basename, join, relative, sep } from 'node:path';
import { KitError } from '@mcpkit/server-kit';

/**
 * The names under which a writer stores its folders in a shared index: paths are stored relative to a named source
 * (by default the folder's name), so readers on other machines show and find them as `source/path`.
 */
export class SourceRoots {
  private readonly byRoot = new Map<string, string>();

  constructor(roots: readonly string[], names: readonly string[] = []) {
    roots.forEach((root, index) => {
      const name = names[index] ?? basename(root);
      if (!/^[\p{L}\p{N}._-]+$/u.test(name)) {
        throw new KitError(
          'INVALID_OPTIONS',
          `The source name ${JSON.stringify(name)} may hold only letters, digits, . _ and -.`,
        );
      }
      if ([...this.byRoot.values()].includes(name)) {
        throw new KitError(
          'INVALID_OPTIONS',
          `Two folders would be stored as the source ${name}; give each a name of its own.`,
        );
      }
      this.byRoot.set(root, name);
    });
  }

  /** The source name of an allowed directory. */
  nameOf(root: string): string {
    const name = this.byRoot.get(root);
    if (name === undefined) throw new KitError('INVALID_OPTIONS', `${root} is not a source of this index.`);
    return name;
  }

  /** The names, in the order the folders were given. */
  get names(): string[] {
    return [...this.byRoot.values()];
  }

  /** `path` (absolute, inside `root`) relative to its root, with forward slashes. */
  relativePath(root: string, path: string): string {
    return relative(root, path).split(sep).join('/');
  }

  /** The absolute path of a stored path of `root`'s source. */
  absolutePath(root: string, stored: string): string {
    return stored === '' ? root : join(root, ...stored.split('/'));
  }

  /** The stored (source, path) of an absolute path inside one of the roots, if it is inside one. */
  locate(path: string): { source: string; path: string } | undefined {
    for (const [root, source] of this.byRoot) {
      if (path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)) {
        return { source, path: this.relativePath(root, path) };
      }
    }
    return undefined;
  }
}
