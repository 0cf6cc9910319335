import { AllowedDirectories } from '../allowed-directories.js';
import { watchDirectories } from './file-watcher.js';
import { IndexDatabase } from './index-database.js';
import { Indexer, type IndexProgress, type IndexReport } from './indexer.js';
import { type SearchPage, type SearchRequest, searchIndex } from './search-query.js';
import { createSearchWorkers, type SearchWorkers } from './search-workers.js';

/** How the local index is set up. */
export interface LocalIndexOptions {
  /** The directories to index and serve. */
  directories: readonly string[];
  /** The SQLite file of the index; `:memory:` keeps it in memory. */
  indexFile: string;
  /** Files larger than this many bytes are skipped; defaults to 1 MiB. */
  maxFileSize?: number;
  /** Files per transaction at most (default 2000); smaller keeps a serving process more responsive. */
  batchFiles?: number;
}

/** The index of the allowed directories: the database, the indexer that fills it, and an optional watcher. */
export class LocalIndex {
  readonly directories: AllowedDirectories;
  readonly database: IndexDatabase;
  readonly indexer: Indexer;
  private watcher: { close(): void } | undefined;
  private initial: Promise<unknown> | undefined;
  private initialDone = false;
  private readonly shutdown = new AbortController();
  private searchWorkers: SearchWorkers | undefined;

  constructor(options: LocalIndexOptions) {
    this.directories = new AllowedDirectories(options.directories);
    this.database = new IndexDatabase(options.indexFile);
    const excludedPaths = new Set(['', '-wal', '-shm', '-journal'].map((suffix) => options.indexFile + suffix));
    this.indexer = new Indexer(this.database, this.directories, {
      maxFileSize: options.maxFileSize ?? 1024 * 1024,
      excludedPaths,
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
    if (this.ready) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.initial, timedOut]);
    clearTimeout(timer);
    return this.ready;
  }

  /**
   * Searches the index. An index file is searched on worker threads under a deadline and the signal, so a broad
   * query never holds the event loop; an in-memory index (tests, embedding) can only be searched on this thread.
   */
  async search(request: SearchRequest, options: { signal?: AbortSignal } = {}): Promise<SearchPage> {
    if (this.database.file === ':memory:') return searchIndex(this.database, request);
    this.searchWorkers ??= createSearchWorkers(this.database.file);
    return this.searchWorkers.search(request, options);
  }

  /** Watches the directories and refreshes the folders that change. */
  watch(onError: (error: unknown) => void): void {
    const ignoredPaths = new Set(['', '-wal', '-shm', '-journal'].map((suffix) => this.database.file + suffix));
    this.watcher = watchDirectories(this.directories.roots, {
      ignoredPaths,
      onChange: (folders) => {
        for (const folder of folders) {
          this.indexer.refresh(folder, { signal: this.shutdown.signal }).catch((error) => {
            if (!this.shutdown.signal.aborted) onError(error);
          });
        }
      },
      onError,
    });
  }

  /** Stops watching, lets a running refresh stop at its next batch, then closes the database. */
  async close(): Promise<void> {
    this.watcher?.close();
    this.shutdown.abort();
    await Promise.all([this.indexer.idle(), this.searchWorkers?.close()]);
    this.database.close();
  }
}
