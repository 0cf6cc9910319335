import { closeSync, constants, type Dirent, openSync, readdirSync, readlinkSync } from 'node:fs';
import { ToolError } from '@mcpkit/server-kit';
import { descriptorPaths, maxPathBytes } from '../confinement/containment.js';
import type { Scope } from '../confinement/scope.js';
import { type IgnoreRules, readIgnoreFile, skippedDirectories } from './ignore-rules.js';

/** What an entry met on a walk is. Symlinks are reported as such and never followed. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** One entry of a walk. */
export interface WalkEntry {
  name: string;
  /** Posix path relative to the walk root. */
  relative: string;
  /** Absolute path (the walk root is a real path, and no link is followed below it). */
  path: string;
  /** 1 for the root's children. */
  depth: number;
  kind: EntryKind;
}

/** How to walk. */
export interface WalkOptions {
  /** Real path of a directory inside `scope`. */
  root: string;
  scope: Scope;
  /** Deepest level listed (1: only the root's children). */
  maxDepth?: number;
  /** The .gitignore rules at the root; when given, ignored entries and `.git`/`node_modules` are skipped. */
  ignore?: IgnoreRules;
  /** Entries (and whole directories) to leave out. */
  exclude?(relative: string, name: string, isDirectory: boolean): boolean;
  /** Resume strictly after this relative path, in walk order (what a cursor carries). */
  after?: string;
  /** Resume at `after` itself instead of after it (grep continues inside the file it stopped in). */
  includeAfter?: boolean;
  /**
   * Counts the directories listed but not entered because a path below them would pass the system's limit (a tree
   * made one level at a time can be deeper than any path; nothing in it could be used by path, and walking it
   * thousands of levels deep ran the nested generators out of stack), and those that could not be opened (a name
   * that is not UTF-8 reads back with U+FFFD and names nothing; no permission; swapped for a link meanwhile).
   */
  notEntered?: { directories: number; unopened: number };
}

const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Yielded at most every few milliseconds while entries are being skipped (by ignore rules or excludes), which
 * otherwise yield nothing: the caller gets to share the event loop and check its signal and its time limit.
 */
export const walkPause: unique symbol = Symbol('walk pause');
/** Milliseconds between two pauses. */
const pauseAfterMs = 10;

/** What a directory entry is, from its type as the directory listing reports it. */
export function kindOf(entry: Dirent): EntryKind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** Name order of a walk: by UTF-16 code units, the same order a cursor compares with. */
function byName(left: Dirent, right: Dirent): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

interface Opened {
  fd: number | undefined;
  /** What to prefix children with to reach them through this directory. */
  via: string;
}

function openRoot(root: string, scope: Scope): Opened {
  if (!descriptorPaths) return { fd: undefined, via: root };
  const fd = openSync(root, directoryFlags);
  const target = readlinkSync(`/proc/self/fd/${fd}`);
  if (!scope.contains(target)) {
    closeSync(fd);
    throw new ToolError(`Access denied: ${root} is outside the allowed directories.`);
  }
  return { fd, via: `/proc/self/fd/${fd}` };
}

function openChild(parent: Opened, name: string, path: string): Opened | undefined {
  if (!descriptorPaths) return { fd: undefined, via: path };
  try {
    // Opened relative to the parent's descriptor and without following a final link: it stays below the root.
    const fd = openSync(`${parent.via}/${name}`, directoryFlags);
    return { fd, via: `/proc/self/fd/${fd}` };
  } catch {
    return undefined; // vanished, became a link, or unreadable: skip it
  }
}

function list(directory: Opened): Dirent[] {
  try {
    return readdirSync(directory.via, { withFileTypes: true }).sort(byName);
  } catch {
    return [];
  }
}

/** The note a walk's answer ends with when it left directories out for their depth, or ''. */
export function notEnteredNote(notEntered: { directories: number; unopened: number }): string {
  const notes: string[] = [];
  const count = notEntered.directories;
  if (count > 0) {
    notes.push(
      `${count} ${count === 1 ? 'directory was' : 'directories were'} not entered: ${count === 1 ? 'its path passes' : 'their paths pass'} the system's ${maxPathBytes.toLocaleString('en-US')}-byte limit, so nothing below could be opened by path`,
    );
  }
  const unopened = notEntered.unopened;
  if (unopened > 0) {
    notes.push(
      `${unopened} ${unopened === 1 ? 'directory' : 'directories'} could not be opened and ${unopened === 1 ? 'was' : 'were'} not entered (a name that is not valid UTF-8, no permission, or changed during the walk)`,
    );
  }
  return notes.map((note) => `\n[note: ${note}]`).join('');
}

/**
 * Walks a directory depth first, children in name order, one directory open at a time per level: memory grows with
 * the depth and the widest directory, never with the tree. Never follows a symlink, so it cannot leave the roots or
 * loop. Stop early with `return()` (a `for...of` break); open descriptors are closed.
 */
export function* walk(options: WalkOptions): Generator<WalkEntry | typeof walkPause> {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const after = options.after ? options.after.split('/') : [];
  const root = openRoot(options.root, options.scope);
  try {
    yield* walkDirectory({ ...options, lastYield: performance.now() }, root, '', 1, maxDepth, options.ignore, after);
  } finally {
    if (root.fd !== undefined) closeSync(root.fd);
  }
}

function* walkDirectory(
  options: WalkOptions & { lastYield: number },
  directory: Opened,
  relative: string,
  depth: number,
  maxDepth: number,
  inherited: IgnoreRules | undefined,
  after: readonly string[],
): Generator<WalkEntry | typeof walkPause> {
  const entries = list(directory);
  let rules = inherited;
  if (rules && entries.some((entry) => entry.name === '.gitignore')) {
    const text = readIgnoreFile(`${directory.via}/.gitignore`);
    if (text !== undefined) rules = rules.enter(relative, text);
  }
  const [resumeName, ...resumeRest] = after;
  for (const entry of entries) {
    if (resumeName !== undefined && entry.name < resumeName) continue;
    const kind = kindOf(entry);
    const entryRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
    const isDirectory = kind === 'directory';
    if (
      (rules && ((isDirectory && skippedDirectories.has(entry.name)) || rules.ignores(entryRelative, isDirectory))) ||
      options.exclude?.(entryRelative, entry.name, isDirectory)
    ) {
      // A skipped entry yields nothing: pause now and then, so the caller shares the loop and checks its limits.
      if (performance.now() - options.lastYield > pauseAfterMs) {
        yield walkPause;
        options.lastYield = performance.now();
      }
      continue;
    }
    const resuming = resumeName !== undefined && entry.name === resumeName;
    const path = `${options.root === '/' ? '' : options.root}/${entryRelative}`;
    // When resuming at this entry it was already shown; only its remaining subtree is left.
    if (!resuming || (resumeRest.length === 0 && options.includeAfter)) {
      yield { name: entry.name, relative: entryRelative, path, depth, kind };
    }
    if (!isDirectory || depth >= maxDepth) continue;
    if (Buffer.byteLength(path) + 2 >= maxPathBytes) {
      if (options.notEntered) options.notEntered.directories++;
      continue;
    }
    const child = openChild(directory, entry.name, path);
    if (!child) {
      if (options.notEntered) options.notEntered.unopened++;
      continue;
    }
    try {
      yield* walkDirectory(options, child, entryRelative, depth + 1, maxDepth, rules, resuming ? resumeRest : []);
    } finally {
      if (child.fd !== undefined) closeSync(child.fd);
    }
  }
}
