import type { AllowedDirectories } from '../allowed-directories.js';
import { watchDirectories } from './file-watcher.js';
import type { IndexWriter } from './index-writer.js';
import { Indexer, type IndexProgress, type IndexReport } from './indexer.js';
import { settlesWithin } from './settles-within.js';

/** Files larger than this many bytes are skipped unless the options say otherwise: 1 MiB. */
export const defaultMaxFileSize = 1024 * 1024;

/** How a process indexes its folders into an index. */
export interface DirectoryIndexingOptions {
  /** The folders to index and watch. */
  directories: AllowedDirectories;
  /** Where the documents go. */
  writer: IndexWriter;
  /** Files larger than this many bytes are skipped; defaults to 1 MiB. */
  maxFileSize?: number;
  /** Files per transaction at most (default 2000); smaller keeps a serving process more responsive. */
  batchFiles?: number;
  /** Absolute paths never indexed nor watched, such as the index file and its journals. */
  excludedPaths?: ReadonlySet<string>;
}

/** The folders one process indexes: the indexer that fills the index, the first run, and the watcher. */
export class DirectoryIndexing {
  readonly directories: AllowedDirectories;
  readonly indexer: Indexer;
  private readonly excludedPaths: ReadonlySet<string>;
  private watcher: { close(): void } | undefined;
  private initial: Promise<unknown> | undefined;
  private initialDone = false;
  private readonly shutdown = new AbortController();

  constructor(options: DirectoryIndexingOptions) {
    this.directories = options.directories;
    this.excludedPaths = options.excludedPaths ?? new Set();
    this.indexer = new Indexer(options.writer, this.directories, {
      maxFileSize: options.maxFileSize ?? defaultMaxFileSize,
      excludedPaths: this.excludedPaths,
      ...(options.batchFiles !== undefined ? { batchFiles: options.batchFiles } : {}),
    });
  }

  /** Refreshes every allowed directory, one after another. */
  async refreshAll(
    options: { signal?: AbortSignal; onProgress?: (progress: IndexProgress) => void } = {},
  ): Promise<IndexReport[]> {
    const reports: IndexReport[] = [];
    for (const root of this.directories.roots) reports.push(await this.indexer.refresh(root, options));
    return reports;
  }

  /** Starts the first refresh in the background; `whenReady` waits for it. */
  startInitialRefresh(onError: (error: unknown) => void): void {
    this.initial = this.refreshAll({ signal: this.shutdown.signal })
      .catch((error) => {
        if (!this.shutdown.signal.aborted) onError(error);
      })
      .finally(() => {
        this.initialDone = true;
      });
  }

  /** True once the first refresh has finished (or when none was started). */
  get ready(): boolean {
    return this.initial === undefined || this.initialDone;
  }

  /** Waits up to `timeoutMs` for the first refresh; resolves true when it has finished. */
  async whenReady(timeoutMs: number): Promise<boolean> {
    if (this.ready || this.initial === undefined) return true;
    await settlesWithin(this.initial, timeoutMs);
    return this.ready;
  }

  /** Watches the directories and refreshes the folders that change; `onReport` hears each finished refresh. */
  watch(onError: (error: unknown) => void, onReport?: (report: IndexReport) => void): void {
    this.watcher = watchDirectories(this.directories.roots, {
      ignoredPaths: this.excludedPaths,
      onChange: (folders) => {
        for (const folder of folders) {
          this.indexer.refresh(folder, { signal: this.shutdown.signal }).then(onReport, (error) => {
            if (!this.shutdown.signal.aborted) onError(error);
          });
        }
      },
      onError,
    });
  }

  /** Stops watching and lets a running refresh stop at its next batch. */
  async close(): Promise<void> {
    this.watcher?.close();
    this.shutdown.abort();
    await this.indexer.idle();
  }
}
