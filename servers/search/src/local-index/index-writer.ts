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

/** What every writer of an index does. Runs of one indexer never overlap. */
interface WriterOfIndex {
  /** The documents stored at `directory` (inside `root`) or below it, by absolute path. */
  documentsUnder(root: string, directory: string): Promise<Map<string, StoredFile>>;
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

/** A writer that reads the changed files itself, off the main thread: an SQLite index file. */
export interface FileWriter extends WriterOfIndex {
  /**
   * Reads, extracts and stores a batch of changed files. A batch may be handed over before the one before it is
   * stored: batches are stored in order.
   */
  indexFiles(root: string, files: readonly ChangedFile[]): Promise<BatchCounts>;
}

/** Where the indexer writes: an SQLite file, an SQLite index in memory, or a PostgreSQL database. */
export type IndexWriter = DocumentWriter | FileWriter;
