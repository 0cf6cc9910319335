import type { ChangedFile } from './document-preparation.js';
import type { DocumentInput } from './index-database.js';

/** What the index stores about a file to decide whether to read it again. */
export interface StoredFile {
  id: number;
  size: number;
  mtimeMs: number;
}

/** A document read by the indexer: what is searched, plus its root and the whole text (for a shared index). */
export interface IndexedDocument extends DocumentInput {
  /** The allowed directory the file was found under. */
  root: string;
  /** The extracted text ('' for a binary file). */
  content: string;
}

/** What storing a batch of changed files found in it. */
export interface BatchCounts {
  added: number;
  updated: number;
  /** Files read but found to hold no text. */
  binary: number;
}

/** `StoredFiles.meet`'s answer when it read as much as one call may before reaching the path. */
export const askAgain: unique symbol = Symbol('ask again');

/**
 * The files an index holds at a directory or below it, met one by one as the walk finds files on disk. An index file
 * reads them a page at a time in the walk's order, so a run holds a page, not every stored row.
 */
export interface StoredFiles {
  /**
   * The stored file at `path` (absolute), if any. Paths come in the walk's order, increasing in code point order
   * (`compareCodePoints`); stored files that sort before `path` and were not met are gone from disk, and collected.
   * `askAgain` when the answer needs more rows than one call reads (the stored rows of a deleted or newly ignored
   * subtree lie before `path`): the caller lets the event loop run, takes the gone ids, and asks again.
   */
  meet(path: string): StoredFile | undefined | typeof askAgain;
  /** The ids of the stored files found gone so far, handed over once, when there are at least `atLeast` (else none). */
  takeGone(atLeast?: number): number[];
  /** After the walk: the ids of every stored file not met (gone), in pages, those collected before included. */
  rest(): AsyncGenerator<number[]>;
}

/** What every writer of an index does. Runs of one indexer never overlap. */
interface WriterOfIndex {
  /** The files stored at `directory` (inside `root`) or below it, to meet in the walk's order. */
  storedFilesUnder(root: string, directory: string): Promise<StoredFiles>;
  /** Removes documents and their passages in one transaction. */
  deleteDocuments(ids: readonly number[]): Promise<void>;
  /**
   * Waits until this writer may write, calling `onWait` first when another writer holds the index (several
   * processes writing one shared index take turns); resolves with the function that lets the next one in.
   */
  acquire(onWait: (message: string) => void, signal?: AbortSignal): Promise<() => Promise<void>>;
  /** Prepares a large load (fewer merges while writing); `finishBulkLoad` undoes it. */
  startBulkLoad(): Promise<void>;
  /** Ends a large load: merges in steps while `keepGoing` says so, yielding in between. */
  finishBulkLoad(keepGoing: () => boolean): Promise<void>;
}

/** A writer given the documents the indexer read itself: PostgreSQL, and an SQLite index in memory. */
export interface DocumentWriter extends WriterOfIndex {
  /** Stores a batch of documents in one transaction, replacing what was stored for the same paths. */
  writeDocuments(documents: readonly IndexedDocument[]): Promise<void>;
  indexFiles?: undefined;
}

/** A batch a `FileWriter` wrote: what it held, and when it is durable. */
export interface WrittenBatch {
  counts: BatchCounts;
  /**
   * Settles when the batch's transaction commits (a bulk load's batches share one until it is large, ended by the
   * writer's next command), or rejects when a later batch's failure rolled it back.
   */
  committed: Promise<void>;
}

/** A writer that reads the changed files itself, off the main thread: an SQLite index file. */
export interface FileWriter extends WriterOfIndex {
  /**
   * Reads, extracts and writes a batch of changed files; resolves once it is written, so the next may follow. A
   * batch may be handed over before the one before it is written: batches are written in order.
   */
  indexFiles(root: string, files: readonly ChangedFile[]): Promise<WrittenBatch>;
  /**
   * The run stopped (cancelled or failed) and waits for its batches in flight: those still not written after a grace
   * period are failed and the threads stopped (a thread stuck in a read on a hung mount would hold the run, and every
   * run queued after it, for good). The next write starts new threads.
   */
  abandonStuckBatches(): void;
}

/** Where the indexer writes: an SQLite file, an SQLite index in memory, or a PostgreSQL database. */
export type IndexWriter = DocumentWriter | FileWriter;
