import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isInside } from './containment.js';

/** Directories a walk skips unless asked: version control data and installed dependencies. */
export const skippedDirectories: ReadonlySet<string> = new Set(['.git', 'node_modules']);

interface Matcher {
  rules: Ignore;
  /** Turns a path relative to the walk root into one relative to the directory of the .gitignore. */
  local(relative: string): string;
}

/**
 * The .gitignore rules in force at one directory of a walk, deepest file first, with git's precedence: the deepest
 * file that has a say (ignore or re-include) decides. Immutable: entering a directory makes a new set.
 */
export class IgnoreRules {
  private readonly matchers: readonly Matcher[];

  private constructor(matchers: readonly Matcher[]) {
    this.matchers = matchers;
  }

  /**
   * The rules that apply at a walk root: the .gitignore files of its ancestors up to (and including) `top`, the
   * allowed directory that holds it, and none above, so nothing outside the roots is read.
   */
  static forRoot(top: string, root: string): IgnoreRules {
    const matchers: Matcher[] = [];
    let directory = path.dirname(root);
    while (isInside(top, directory)) {
      const prefix = path.relative(directory, root).split(path.sep).join('/');
      const rules = readRules(path.join(directory, '.gitignore'));
      if (rules) matchers.push({ rules, local: (relative) => `${prefix}/${relative}` });
      const parent = path.dirname(directory);
      if (parent === directory) break;
      directory = parent;
    }
    return new IgnoreRules(matchers);
  }

  /** The rules inside `directory` (relative to the walk root, '' for the root) given its .gitignore text. */
  enter(directory: string, gitignore: string): IgnoreRules {
    const rules = ignore().add(gitignore);
    const cut = directory === '' ? 0 : directory.length + 1;
    return new IgnoreRules([{ rules, local: (relative) => relative.slice(cut) }, ...this.matchers]);
  }

  /** True when the entry at `relative` (posix, relative to the walk root) is ignored. */
  ignores(relative: string, isDirectory: boolean): boolean {
    for (const matcher of this.matchers) {
      const local = matcher.local(relative);
      const result = matcher.rules.test(isDirectory ? `${local}/` : local);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}

/**
 * Reads a .gitignore without following a link and without blocking on a FIFO; anything but a regular file of at
 * most 1 MB counts as absent.
 */
export function readIgnoreFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > 1_048_576) return undefined;
    return readFileSync(fd, 'utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function readRules(file: string): Ignore | undefined {
  const text = readIgnoreFile(file);
  return text === undefined ? undefined : ignore().add(text);
}
