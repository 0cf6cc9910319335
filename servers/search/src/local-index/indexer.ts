import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AllowedDirectories } from '../allowed-directories.js';
import { readOpenedFile } from '../confined-file.js';
import { BatchLoader } from './batch-loader.js';
import { type ChangedFile, prepareDocument } from './document-preparation.js';
import { walkFiles } from './file-walker.js';
import { askAgain, type IndexedDocument, type IndexWriter } from './index-writer.js';

/** How long the indexer meets walked files against the stored rows before it lets the event loop run. */
const meetSliceMs = 10;

/** Where an indexing run is, for progress bars and `index_status`. */
export interface IndexProgress {
  directory: string;
  phase: 'waiting' | 'scanning' | 'indexing' | 'merging' | 'done';
  /** Files found so far (scanning) or changed files stored so far (indexing). */
  done: number;
  /** While scanning: changed files stored so far (they are stored as the scan finds them). */
  stored?: number;
  /** Files to read, once the scan is over. */
  total?: number;
  /** Why the run waits (another process writes the shared index), in the waiting phase. */
  message?: string;
}

/** What one indexing run changed. */
export interface IndexReport {
  directory: string;
  scanned: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** Files read but found to hold no text. */
  binary: number;
  durationMs: number;
  /** What the run could not honour in full, one sentence each (a .gitignore over the rule caps). */
  notes: string[];
}

/** How the indexer reads files. */
export interface IndexerOptions {
  /** Files larger than this many bytes are skipped. */
  maxFileSize: number;
  /** Absolute paths never indexed, such as the index file itself. */
  excludedPaths?: ReadonlySet<string>;
  /** Files per transaction at most (default 2000). */
  batchFiles?: number;
}

/**
 * A transaction ends after this many files or bytes: FTS5 writes a new segment at every commit, so large batches
 * build several times faster, while a bound keeps each pause of a serving process to about a second.
 */
const defaultBatchFiles = 2000;
const batchBytes = 2 * 1024 * 1024;
/** Runs that read at least this many files load in bulk: merging deferred, one merge at the end. */
const bulkFiles = 1000;
/** A batch's writes yield to the event loop after this long, so requests keep flowing during a large batch. */
const sliceMs = 20;
/** Files found gone from disk are removed once this many are collected during the walk, and at its end. */
const goneIds = 1000;
/** Files read from disk at once. */
const readConcurrency = 16;
/**
 * Brings the index up to date with the files under a directory: reads only files whose size or mtime changed,
 * drops files that are gone, and commits in batches while yielding so that a serving process keeps answering.
 * Runs are queued: one at a time per index.
 */
export class Indexer {
  private queue: Promise<unknown> = Promise.resolve();
  private current: IndexProgress | undefined;
  private last: IndexReport | undefined;

  constructor(
    private readonly writer: IndexWriter,
    private readonly directories: AllowedDirectories,
    private readonly options: IndexerOptions,
  ) {}

  /** The run in progress, if any. */
  get progress(): IndexProgress | undefined {
    return this.current;
  }

  /** The report of the last finished run. */
  get lastReport(): IndexReport | undefined {
    return this.last;
  }

  /** Resolves when no run is queued or running. */
  async idle(): Promise<void> {
    for (let queued = this.queue; ; queued = this.queue) {
      await queued;
      if (queued === this.queue) return;
    }
  }

  /** Queues a refresh of `directory` (a real path inside an allowed directory) and resolves with its report. */
  refresh(
    directory: string,
    options: { signal?: AbortSignal; onProgress?: (progress: IndexProgress) => void } = {},
  ): Promise<IndexReport> {
    const run = this.queue.then(() => this.run(directory, options));
    this.queue = run.catch(() => {});
    return run;
  }

  private async run(
    directory: string,
    options: { signal?: AbortSignal; onProgress?: (progress: IndexProgress) => void },
  ): Promise<IndexReport> {
    const started = performance.now();
    const root = this.directories.rootOf(directory);
    if (!root) throw new Error(`${directory} is outside the allowed directories.`);
    const { signal } = options;
    const report = (progress: IndexProgress) => {
      this.current = progress;
      options.onProgress?.(progress);
    };
    // Another process writing the same shared index goes first; the wait is reported, not silent.
    const release = await this.writer.acquire(
      (message) => report({ directory, phase: 'waiting', done: 0, message }),
      signal,
    );
    try {
      const stored = await this.writer.storedFilesUnder(root, directory);
      let scanned = 0;
      let removed = 0;
      const remove = async (ids: number[]) => {
        if (ids.length === 0) return;
        await this.writer.deleteDocuments(ids);
        removed += ids.length;
      };
      let changed = 0;
      let walking = true;
      const notes = new Set<string>();
      report({ directory, phase: 'scanning', done: 0 });
      // Changed files are stored as the walk finds them, a batch at a time. The walk visits folders in path order, so
      // the documents' path index fills its pages (files inserted out of order split them half full, 8% of the file).
      const loader = new BatchLoader({
        writer: this.writer,
        root,
        batchFiles: this.options.batchFiles ?? defaultBatchFiles,
        batchBytes,
        bulkFiles,
        readBatch: (batch) => this.readBatch(root, batch, signal),
        onStored: (done) => {
          if (walking) report({ directory, phase: 'scanning', done: scanned, stored: done });
          else report({ directory, phase: 'indexing', done, total: changed });
        },
        ...(signal ? { signal } : {}),
      });
      try {
        const walkOptions = {
          ...this.options,
          ...(signal ? { signal } : {}),
          onNote: (note: string) => notes.add(note),
        };
        for await (const files of walkFiles(root, directory, walkOptions)) {
          const before = scanned;
          scanned += files.length;
          let sliceStart = performance.now();
          for (const file of files) {
            // A folder of many unchanged files is met in slices: its rows are read a page at a time, synchronously.
            if (performance.now() - sliceStart >= meetSliceMs) {
              await yieldToEventLoop();
              signal?.throwIfAborted();
              sliceStart = performance.now();
            }
            let known = stored.meet(file.path);
            while (known === askAgain) {
              // The stored rows of a deleted or newly ignored subtree, a page per turn of the event loop.
              await remove(stored.takeGone(goneIds));
              await yieldToEventLoop();
              signal?.throwIfAborted();
              known = stored.meet(file.path);
            }
            if (!known || known.size !== file.size || known.mtimeMs !== file.mtimeMs) {
              changed++;
              await loader.add({ ...file, isNew: !known });
            }
          }
          // Files gone from disk are removed as the walk passes them, a page at a time.
          await remove(stored.takeGone(goneIds));
          if (Math.floor(scanned / 1000) > Math.floor(before / 1000))
            report({ directory, phase: 'scanning', done: scanned, stored: loader.stored });
        }
        walking = false;
        report({ directory, phase: 'indexing', done: loader.stored, total: changed });
        await loader.finish();
      } catch (error) {
        await loader.abandon(error);
      } finally {
        if (loader.bulk) {
          // Merged in steps with yields, so a serving process keeps answering. A cancelled run skips the merge.
          report({ directory, phase: 'merging', done: loader.stored, total: changed });
          await this.writer.finishBulkLoad(() => !signal?.aborted);
        }
      }
      // A bulk load's last batches are committed by the command that ended it: counted now.
      await loader.committed();
      for await (const ids of stored.rest()) await remove(ids);
      const result: IndexReport = {
        directory,
        scanned,
        ...loader.counts,
        removed,
        unchanged: scanned - changed,
        durationMs: Math.round(performance.now() - started),
        notes: [...notes],
      };
      this.last = result;
      report({ directory, phase: 'done', done: changed, total: changed });
      return result;
    } finally {
      this.current = undefined;
      await release();
    }
  }

  private async readBatch(
    root: string,
    batch: ChangedFile[],
    signal: AbortSignal | undefined,
  ): Promise<(IndexedDocument & { isNew: boolean })[]> {
    const documents: (IndexedDocument & { isNew: boolean })[] = [];
    for (let start = 0; start < batch.length; start += readConcurrency) {
      signal?.throwIfAborted();
      const slice = batch.slice(start, start + readConcurrency);
      // Read through the descriptor that was checked: a file swapped for a link, a FIFO or a bigger file between the
      // walk and the read is skipped, never read outside the directories, waited on or read past the cap.
      const limits = { maxBytes: this.options.maxFileSize, tooLarge: () => 'too large', ...(signal ? { signal } : {}) };
      const contents = await Promise.all(
        slice.map((file) =>
          readOpenedFile(this.directories, file.path, file.path, limits).then(
            (read) => read.bytes,
            () => undefined,
          ),
        ),
      );
      let sliceStart = performance.now();
      for (const [index, file] of slice.entries()) {
        // Extracting a megabyte of text takes milliseconds: sixteen in a row would hold the loop, so share it.
        if (performance.now() - sliceStart > sliceMs) {
          await yieldToEventLoop();
          sliceStart = performance.now();
        }
        const bytes = contents[index];
        if (!bytes) continue; // vanished between the walk and the read; the next run drops it
        documents.push(prepareDocument(file, root, this.directories.relativeToRoot(file.path, root), bytes));
      }
    }
    return documents;
  }
}
