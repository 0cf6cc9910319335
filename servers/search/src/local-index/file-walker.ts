import { lstatSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { readFolderEntries } from './folder-entries.js';
import { type IgnoreFile, isIgnored, maxRulesInForce, readIgnoreFile, rulesInForce } from './ignore-rules.js';
import { sortByCodePoints } from './path-order.js';
import { hasBinaryExtension } from './text-extraction.js';

/** A file the walk found, with what the index compares to decide whether to read it again. */
export interface WalkedFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** What the walk skips. */
export interface WalkOptions {
  /** Files larger than this many bytes are not indexed. */
  maxFileSize: number;
  /** Absolute paths never indexed (the index file itself when it lies inside a directory). */
  excludedPaths?: ReadonlySet<string>;
  signal?: AbortSignal;
  /** Hears a sentence about something the walk could not honour in full (a .gitignore over the rule caps). */
  onNote?: (sentence: string) => void;
}

/** Directory names never descended into, whatever .gitignore says. */
const alwaysSkipped = new Set(['.git', '.hg', '.svn', 'node_modules']);
/** The walk's synchronous work runs in slices of about this long, then lets requests and pings through. */
const sliceMs = 10;

/** The .gitignore rules that apply at `directory`: those of `root` and every folder between them. */
function ancestorRules(root: string, directory: string, onNote?: (sentence: string) => void): IgnoreFile[] {
  const chain: string[] = [];
  for (let current = dirname(directory); current.length >= root.length; current = dirname(current)) {
    chain.unshift(current);
    if (current === root || current === dirname(current)) break;
  }
  const stack: IgnoreFile[] = [];
  for (const folder of chain) {
    const rules = readIgnoreFile(folder, maxRulesInForce - rulesInForce(stack), onNote);
    if (rules) stack.push(rules);
  }
  return stack;
}

/** A folder met by the walk, or a run of files (those of one folder between two of its subfolders). */
type WalkEntry = { kind: 'folder'; path: string } | { kind: 'files'; files: WalkedFile[] };

/** What the walk has still to do: read a folder, or stat a run of files. */
type Pending = { kind: 'folder'; path: string; stack: IgnoreFile[] } | { kind: 'files'; paths: string[] };

async function* walk(
  root: string,
  directory: string,
  options: WalkOptions & { foldersOnly?: boolean },
): AsyncGenerator<WalkEntry> {
  const inherited = directory === root ? [] : ancestorRules(root, directory, options.onNote);
  if (directory !== root && isIgnored(inherited, directory, true)) return;
  // Folders still to read and runs of files still to stat, last pushed first: a folder's entries are pushed in reverse.
  const pending: Pending[] = [{ kind: 'folder', path: directory, stack: inherited }];
  let sliceStart = performance.now();
  // Rule matching costs up to rules-in-force per entry: the walk yields to the event loop between slices. Checked
  // inline per entry (an async call per entry would cost a promise each, a tenth of an unchanged re-index).
  const timeToShare = () => performance.now() - sliceStart >= sliceMs;
  const shareTheLoop = async () => {
    await nextTurn();
    options.signal?.throwIfAborted();
    sliceStart = performance.now();
  };
  while (pending.length > 0) {
    options.signal?.throwIfAborted();
    if (timeToShare()) await shareTheLoop();
    const next = pending.pop() as Pending;
    if (next.kind === 'files') {
      const found: WalkedFile[] = [];
      for (const file of next.paths) {
        if (timeToShare()) await shareTheLoop();
        let stat: ReturnType<typeof lstatSync> | undefined;
        try {
          stat = lstatSync(file, { throwIfNoEntry: false });
        } catch {
          continue; // unreadable: skipped like a vanished file
        }
        if (!stat?.isFile() || stat.size > options.maxFileSize) continue;
        found.push({ path: file, size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) });
      }
      // One yield per run of files: each step of an async generator costs promises, which per file made a tenth of the walk.
      if (found.length > 0) yield { kind: 'files', files: found };
      continue;
    }
    const { path, stack: parentStack } = next;
    // Synchronous calls on purpose: on a local disk they are over twice as fast as the promise API (no thread pool
    // hop per file), and one folder's worth blocks the event loop for well under a millisecond per hundred files.
    // Listed through a descriptor that is this very folder: never through a link out of the directories.
    const entries = readFolderEntries(path);
    if (!entries) continue; // unreadable, vanished or swapped folders are skipped, not fatal
    yield { kind: 'folder', path };
    const own = entries.some((entry) => entry.name === '.gitignore')
      ? readIgnoreFile(path, maxRulesInForce - rulesInForce(parentStack), options.onNote)
      : undefined;
    const stack = own ? [...parentStack, own] : parentStack;
    // The path is normalized already and a name holds no separator: concatenation is join without its normalizing.
    const prefix = path.endsWith(sep) ? path : path + sep;
    // In path order, exactly as the index's path column sorts (code points, a folder as its name and a separator, as
    // its files' paths do): the indexer matches the walk with the stored rows read in that order, and the documents'
    // path index fills its pages only when paths come in order.
    const keyed = entries.map((entry) => ({ entry, key: entry.isDirectory() ? entry.name + sep : entry.name }));
    sortByCodePoints(keyed);
    const ordered: Pending[] = [];
    let run: string[] = [];
    let previousKey: string | undefined;
    for (const { entry, key } of keyed) {
      if (timeToShare()) await shareTheLoop();
      // Names that are not UTF-8 read as U+FFFD: several entries (and a real name holding U+FFFD) become one path, which
      // names at most the real one. Walked per entry, a folder of such aliases in each folder multiplied the walk at
      // every level (and the index read the same file again and again); the same path is walked once.
      if (key === previousKey) continue;
      previousKey = key;
      const child = prefix + entry.name;
      if (entry.isDirectory()) {
        if (alwaysSkipped.has(entry.name) || isIgnored(stack, child, true)) continue;
        if (run.length > 0) ordered.push({ kind: 'files', paths: run });
        run = [];
        ordered.push({ kind: 'folder', path: child, stack });
      } else if (entry.isFile() && !options.foldersOnly) {
        if (hasBinaryExtension(entry.name) || options.excludedPaths?.has(child) || isIgnored(stack, child, false)) {
          continue;
        }
        run.push(child);
      }
    }
    if (run.length > 0) ordered.push({ kind: 'files', paths: run });
    // Last pushed is taken first: pushed in reverse, the entries are taken in order.
    for (let index = ordered.length - 1; index >= 0; index--) pending.push(ordered[index] as Pending);
  }
}

/**
 * Walks `directory` (inside `root`) and yields the files worth indexing in path order (code point order of the whole
 * path, SQLite's), a run of one folder's files at a time, depth first (a subfolder between the files it sorts
 * between): it follows
 * .gitignore files at every level, skips VCS and dependency folders, symbolic links, binary extensions and files over
 * the size cap.
 */
export async function* walkFiles(root: string, directory: string, options: WalkOptions): AsyncGenerator<WalkedFile[]> {
  for await (const entry of walk(root, directory, options)) {
    if (entry.kind === 'files') yield entry.files;
  }
}

/** Walks `directory` like `walkFiles` but yields the folders the index looks into (for watching them). */
export async function* walkFolders(root: string, directory: string, signal?: AbortSignal): AsyncGenerator<string> {
  for await (const entry of walk(root, directory, {
    maxFileSize: 0,
    foldersOnly: true,
    ...(signal ? { signal } : {}),
  })) {
    if (entry.kind === 'folder') yield entry.path;
  }
}
