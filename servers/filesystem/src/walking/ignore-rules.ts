import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../confinement/containment.js';
import { GitignoreFile, maxPatternCharsInForce, maxRulesInForce } from './gitignore-file.js';

/** Notes about capped .gitignore files an answer spells out; the others are counted. */
const notesShown = 3;

/** Directories a walk skips unless asked: version control data and installed dependencies. */
export const skippedDirectories: ReadonlySet<string> = new Set(['.git', 'node_modules']);

interface Matcher {
  rules: GitignoreFile;
  /** Turns a path relative to the walk root into one relative to the directory of the .gitignore. */
  local(relative: string): string;
}

/**
 * The .gitignore rules in force at one directory of a walk, deepest file first, with git's precedence: the deepest
 * file that has a say (ignore or re-include) decides. Immutable: entering a directory makes a new set. Each file's
 * rules are capped and matched in bounded time (see {@link GitignoreFile}); what a cap left out is in `notes`.
 */
export class IgnoreRules {
  private readonly matchers: readonly Matcher[];
  /** Notes about rules left out, shared by every set of one walk (a walk reports them once, at its end). */
  readonly notes: Set<string>;
  /** True when the walk root itself lies in a directory an ancestor's .gitignore ignores. */
  private readonly everything: boolean;

  private constructor(matchers: readonly Matcher[], notes: Set<string>, everything = false) {
    this.matchers = matchers;
    this.notes = notes;
    this.everything = everything;
  }

  /**
   * The rules that apply at a walk root: the .gitignore files of its ancestors up to (and including) `top`, the
   * allowed directory that holds it, and none above, so nothing outside the roots is read.
   */
  static forRoot(top: string, root: string): IgnoreRules {
    const notes = new Set<string>();
    // Nothing above the allowed directory is read.
    if (!isInside(top, root)) return new IgnoreRules([], notes);
    // From the allowed directory down to the root's parent: each level's rules, and whether the next level is ignored.
    const levels = path.relative(top, root).split(path.sep).filter(Boolean);
    let rules = new IgnoreRules([], notes);
    let directory = top;
    for (const [index, name] of levels.entries()) {
      const text = readIgnoreFile(path.join(directory, '.gitignore'));
      const below = levels.slice(0, index).join('/');
      if (text !== undefined) rules = rules.enter(below, text);
      const child = below === '' ? name : `${below}/${name}`;
      if (rules.ignores(child, true)) return new IgnoreRules([], notes, true);
      directory = path.join(directory, name);
    }
    // Re-based on the walk root: an ancestor's rules see `prefix/relative`.
    const prefix = levels.join('/');
    return new IgnoreRules(
      rules.matchers.map((matcher) => ({
        rules: matcher.rules,
        local: (relative) => matcher.local(`${prefix}/${relative}`),
      })),
      notes,
    );
  }

  /** The rules inside `directory` (relative to the walk root, '' for the root) given its .gitignore text. */
  enter(directory: string, gitignore: string): IgnoreRules {
    // Every file from the walk root down applies to an entry below it: a deeper file gets the room left in force.
    let inForce = 0;
    let charsInForce = 0;
    for (const matcher of this.matchers) {
      inForce += matcher.rules.size;
      charsInForce += matcher.rules.patternChars;
    }
    const rules = new GitignoreFile(gitignore, {
      rules: maxRulesInForce - inForce,
      chars: maxPatternCharsInForce - charsInForce,
    });
    if (rules.note) this.notes.add(`${rules.note} (${directory === '' ? '.' : directory}/.gitignore)`);
    const cut = directory === '' ? 0 : directory.length + 1;
    return new IgnoreRules(
      [{ rules, local: (relative) => relative.slice(cut) }, ...this.matchers],
      this.notes,
      this.everything,
    );
  }

  /** True when the entry at `relative` (posix, relative to the walk root) is ignored. */
  ignores(relative: string, isDirectory: boolean): boolean {
    if (this.everything) return true;
    for (const matcher of this.matchers) {
      const verdict = matcher.rules.test(matcher.local(relative), isDirectory);
      if (verdict === 'ignored') return true;
      if (verdict === 'included') return false;
    }
    return false;
  }

  /** The notes as one line for a tool's answer, or '' when every rule applied. */
  noteLine(): string {
    if (this.notes.size === 0) return '';
    // Each note is a whole sentence and a path: the first few say what happened, the rest are counted.
    const notes = [...this.notes];
    const shown = notes.slice(0, notesShown);
    const more = notes.length - shown.length;
    if (more > 0) shown.push(`and ${more} more .gitignore files had rules left out`);
    return `\n[note: ${shown.join('; ')}]`;
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
