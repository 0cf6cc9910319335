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

/** Where the indexer writes: an SQLite file or a PostgreSQL database. Runs of one indexer never overlap. */
export interface IndexWriter {
  /** The documents stored at `directory` (inside `root`) or below it, by absolute path. */
  documentsUnder(root: string, directory: string): Promise<Map<string, StoredFile>>;
  /** Stores a batch of documents in one transaction, replacing what was stored for the same paths. */
  writeDocuments(documents: readonly IndexedDocument[]): Promise<void>;
  /**
   * Reads, extracts and stores a batch of changed files in one transaction, off the main thread, when the writer can
   * (an SQLite file). A batch may be handed over before the one before it is stored: batches are stored in order.
   * Without it the indexer reads the files itself and calls `writeDocuments`.
   */
  indexFiles?(root: string, files: readonly ChangedFile[]): Promise<BatchCounts>;
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
