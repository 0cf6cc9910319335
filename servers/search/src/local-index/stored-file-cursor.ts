import { sep } from 'node:path';
import type { IndexDatabase } from './index-database.js';
import { askAgain, type StoredFile, type StoredFiles } from './index-writer.js';
import { compareCodePoints } from './path-order.js';

/** Stored rows read at a time by default: the run's memory for what the index holds, whatever the corpus. */
const defaultPageRows = 1000;

/**
 * The files an SQLite index holds under a directory, read a page at a time in path order and merged with the walk,
 * which goes in the same order (`walkFiles`): a stored file the walk passes without meeting is gone from disk.
 *
 * The run stores changed files while this reads, so the rows it reads next could hold the run's own new files. They
 * never do: a new file is stored only after the walk met it, and by then this has read past it (it holds a stored row
 * after it, or found the end, which stays found), and every later page starts after the last row read.
 */
export class StoredFileCursor implements StoredFiles {
  private page: [id: number, path: string, size: number, mtimeMs: number][] = [];
  private position = 0;
  /** The next page starts after this path. */
  private after: string;
  /** Every path under the directory sorts before this one: the prefix with its separator's successor. */
  private readonly before: string;
  private ended = false;
  private gone: number[] = [];

  constructor(
    private readonly database: IndexDatabase,
    directory: string,
    private readonly pageRows = defaultPageRows,
  ) {
    // A page of no rows would never reach the end: every `meet` would answer `askAgain`, for good.
    if (!Number.isInteger(pageRows) || pageRows < 1) {
      throw new RangeError(`A stored-file cursor reads at least one row a page (asked for ${pageRows}).`);
    }
    const prefix = directory.endsWith(sep) ? directory : directory + sep;
    this.after = prefix;
    this.before = prefix.slice(0, -1) + String.fromCharCode(sep.charCodeAt(0) + 1);
    // A file stored where the directory is now: the walk never meets it.
    const atDirectory = directory === prefix ? undefined : database.documentIdAt(directory);
    if (atDirectory !== undefined) this.gone.push(atDirectory);
  }

  /**
   * Reads one page at most per call: a deleted or newly ignored subtree before `path` can hold any number of stored
   * rows (reading 100,000 of them took 148 ms in one call), so past a page the answer is `askAgain`, and the caller
   * lets the event loop run and removes the gone files before it asks again.
   */
  meet(path: string): StoredFile | undefined | typeof askAgain {
    let pagesRead = 0;
    for (;;) {
      if (this.position >= this.page.length) {
        if (this.ended) return undefined;
        if (pagesRead > 0) return askAgain;
        this.readPage();
        pagesRead++;
        continue;
      }
      const [id, stored, size, mtimeMs] = this.page[this.position] as [number, string, number, number];
      if (stored === path) {
        this.position++;
        return { id, size, mtimeMs };
      }
      if (compareCodePoints(stored, path) > 0) return undefined;
      this.gone.push(id);
      this.position++;
    }
  }

  takeGone(atLeast = 0): number[] {
    if (this.gone.length === 0 || this.gone.length < atLeast) return [];
    const gone = this.gone;
    this.gone = [];
    return gone;
  }

  async *rest(): AsyncGenerator<number[]> {
    for (let row = this.current(); row; row = this.current()) {
      this.gone.push(row[0]);
      this.position++;
      if (this.gone.length >= this.pageRows) yield this.takeGone();
    }
    if (this.gone.length > 0) yield this.takeGone();
  }

  /** The row the walk has reached, reading the next page when the one held is done. */
  private current(): [number, string, number, number] | undefined {
    if (this.position >= this.page.length && !this.ended) this.readPage();
    return this.page[this.position];
  }

  /** Reads the page after the last row read; a short page is the last. */
  private readPage(): void {
    this.page = this.database.storedFilesBetween(this.after, this.before, this.pageRows);
    this.position = 0;
    if (this.page.length < this.pageRows) this.ended = true;
    const last = this.page.at(-1);
    if (last) this.after = last[1];
  }
}
