import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AllowedDirectories } from '../allowed-directories.js';
import { readOpenedFile } from '../confined-file.js';
import { type ChangedFile, prepareDocument } from './document-preparation.js';
import { type WalkedFile, walkFiles } from './file-walker.js';
import type { BatchCounts, IndexedDocument, IndexWriter } from './index-writer.js';

/** Where an indexing run is, for progress bars and `index_status`. */
export interface IndexProgress {
  directory: string;
  phase: 'waiting' | 'scanning' | 'indexing' | 'merging' | 'done';
  /** Files found so far (scanning) or files read so far (indexing). */
  done: number;
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
/** Runs that read at least this many files load in bulk: automatic merging off, one merge at the end. */
const bulkFiles = 1000;
/** A batch's writes yield to the event loop after this long, so requests keep flowing during a large batch. */
const sliceMs = 20;
/** Files read from disk at once. */
const readConcurrency = 16;
/**
 * Batches handed to a writer that reads files itself (`indexFiles`) before the first of them is stored: two, so one is
 * read while the other is written, and at most two batches of text are held.
 */
const batchesInFlight = 2;

function nextBatch<File extends WalkedFile>(files: File[], start: number, batchFiles: number): File[] {
  let end = start;
  let bytes = 0;
  while (end < files.length && end - start < batchFiles && bytes < batchBytes) {
    bytes += (files[end] as File).size;
    end++;
  }
  return files.slice(start, end);
}

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
      const stored = await this.writer.documentsUnder(root, directory);
      const changed: ChangedFile[] = [];
      let scanned = 0;
      const notes = new Set<string>();
      report({ directory, phase: 'scanning', done: 0 });
      const walkOptions = { ...this.options, ...(signal ? { signal } : {}), onNote: (note: string) => notes.add(note) };
      for await (const files of walkFiles(root, directory, walkOptions)) {
        for (const file of files) {
          const known = stored.get(file.path);
          if (known) stored.delete(file.path);
          if (!known || known.size !== file.size || known.mtimeMs !== file.mtimeMs)
            changed.push({ ...file, isNew: !known });
        }
        const before = scanned;
        scanned += files.length;
        if (Math.floor(scanned / 1000) > Math.floor(before / 1000))
          report({ directory, phase: 'scanning', done: scanned });
      }
      // In path order: the documents' path index then fills its pages (in walk order they split half full, 8% of
      // the file), and files of one folder are read together.
      changed.sort((first, second) => (first.path < second.path ? -1 : first.path > second.path ? 1 : 0));
      const removed = [...stored.values()];
      const counts = { added: 0, updated: 0, binary: 0 };
      report({ directory, phase: 'indexing', done: 0, total: changed.length });
      const bulk = changed.length >= bulkFiles;
      if (bulk) await this.writer.startBulkLoad();
      try {
        await this.load(root, directory, changed, counts, signal, report);
      } finally {
        if (bulk) {
          // Merged in steps with yields, so a serving process keeps answering. A cancelled run skips the merge.
          report({ directory, phase: 'merging', done: changed.length, total: changed.length });
          await this.writer.finishBulkLoad(() => !signal?.aborted);
        }
      }
      if (removed.length > 0) await this.writer.deleteDocuments(removed.map((document) => document.id));
      const result: IndexReport = {
        directory,
        scanned,
        ...counts,
        removed: removed.length,
        unchanged: scanned - changed.length,
        durationMs: Math.round(performance.now() - started),
        notes: [...notes],
      };
      this.last = result;
      report({ directory, phase: 'done', done: changed.length, total: changed.length });
      return result;
    } finally {
      this.current = undefined;
      await release();
    }
  }

  /** Reads and stores the changed files in batches, one transaction each, yielding in between. */
  private async load(
    root: string,
    directory: string,
    changed: ChangedFile[],
    counts: BatchCounts,
    signal: AbortSignal | undefined,
    report: (progress: IndexProgress) => void,
  ): Promise<void> {
    if (this.writer.indexFiles) {
      await this.loadThrough(
        this.writer.indexFiles.bind(this.writer),
        root,
        directory,
        changed,
        counts,
        signal,
        report,
      );
      return;
    }
    for (let start = 0; start < changed.length; ) {
      signal?.throwIfAborted();
      const batch = nextBatch(changed, start, this.options.batchFiles ?? defaultBatchFiles);
      const documents = await this.readBatch(root, batch, signal);
      await this.writer.writeDocuments(documents);
      for (const document of documents) {
        if (!document.text) counts.binary++;
        else if (document.isNew) counts.added++;
        else counts.updated++;
      }
      start += batch.length;
      report({ directory, phase: 'indexing', done: start, total: changed.length });
      await yieldToEventLoop();
    }
  }

  /**
   * Hands the changed files in batches to a writer that reads and stores them itself, keeping `batchesInFlight`
   * handed over so that reading one overlaps storing the other. A cancel stops handing over; the batches already
   * handed over are stored (at most two) before the run ends.
   */
  private async loadThrough(
    indexFiles: (root: string, files: readonly ChangedFile[]) => Promise<BatchCounts>,
    root: string,
    directory: string,
    changed: ChangedFile[],
    counts: BatchCounts,
    signal: AbortSignal | undefined,
    report: (progress: IndexProgress) => void,
  ): Promise<void> {
    const inFlight: Promise<void>[] = [];
    let done = 0;
    let stopped: { error: unknown } | undefined;
    try {
      for (let start = 0; start < changed.length; ) {
        signal?.throwIfAborted();
        const batch = nextBatch(changed, start, this.options.batchFiles ?? defaultBatchFiles);
        start += batch.length;
        const stored = indexFiles(root, batch).then((batchCounts) => {
          counts.added += batchCounts.added;
          counts.updated += batchCounts.updated;
          counts.binary += batchCounts.binary;
          done += batch.length;
          report({ directory, phase: 'indexing', done, total: changed.length });
        });
        // Awaited below or after the loop; a failure is not left unhandled meanwhile.
        stored.catch(() => {});
        inFlight.push(stored);
        if (inFlight.length >= batchesInFlight) await inFlight.shift();
      }
    } catch (error) {
      stopped = { error };
    }
    // The batches handed over are stored (or fail) before the run goes on to merge or ends.
    const settled = await Promise.allSettled(inFlight);
    if (stopped) throw stopped.error;
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
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
