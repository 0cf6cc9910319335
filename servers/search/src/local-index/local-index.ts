import { dirname } from 'node:path';
import { AllowedDirectories } from '../allowed-directories.js';
import { type ReadLimits, readConfinedFile } from '../confined-file.js';
import { fileUris } from '../document-uris.js';
import type { DocumentText, ListedDocument, SearchIndex, SearchQuery } from '../search-index.js';
import { DirectoryIndexing, defaultMaxFileSize } from './directory-indexing.js';
import { IndexDatabase } from './index-database.js';
import type { Indexer, IndexProgress, IndexReport } from './indexer.js';
import { type SearchPage, type SearchRequest, searchIndex } from './search-query.js';
import { createSearchWorkers, type SearchWorkers } from './search-workers.js';
import { settlesWithin } from './settles-within.js';
import { sqliteWriter } from './sqlite-writer.js';
import { type ThreadedSqliteWriter, threadedSqliteWriter } from './threaded-sqlite-writer.js';

/** How the local index is set up. */
export interface LocalIndexOptions {
  /** The directories to index and serve (resolved here unless they are already). */
  directories: readonly string[] | AllowedDirectories;
  /** The SQLite file of the index; `:memory:` keeps it in memory. */
  indexFile: string;
  /** Files larger than this many bytes are skipped; defaults to 1 MiB. */
  maxFileSize?: number;
  /** Files per transaction at most (default 2000); smaller keeps a serving process more responsive. */
  batchFiles?: number;
  /** How long `close` waits for a running refresh, then for the writer's threads (default 5 s each). */
  closeGraceMs?: number;
  /** The index file writer's preparing thread module, for tests of a thread stuck in a read. */
  preparationModule?: URL;
}

/** `close`'s default wait for a running refresh. */
const defaultCloseGraceMs = 5000;

/** How long a search waits for files that changed since they were indexed to be indexed again before answering. */
const changedFileWaitMs = 2000;

/**
 * The index of the allowed directories in one SQLite FTS5 file: the database, the indexer that fills it, and an
 * optional watcher. Documents are read from disk, confined to the directories.
 */
export class LocalIndex implements SearchIndex {
  readonly database: IndexDatabase;
  readonly indexing: DirectoryIndexing;
  readonly documentUris = fileUris;
  private searchWorkers: SearchWorkers | undefined;
  private readonly threadedWriter: ThreadedSqliteWriter | undefined;
  private readonly closeGraceMs: number;
  /** The refresh under way of each folder that searches found a changed file in. */
  private readonly changedFolderRefreshes = new Map<string, Promise<boolean>>();

  constructor(options: LocalIndexOptions) {
    const directories = AllowedDirectories.of(options.directories);
    this.database = new IndexDatabase(options.indexFile);
    const excludedPaths = new Set(['', '-wal', '-shm', '-journal'].map((suffix) => options.indexFile + suffix));
    // A file is written by worker threads (reading the next batch while storing this one, off the event loop); an
    // in-memory database lives in this thread's connection only, so it is written here.
    this.threadedWriter =
      options.indexFile === ':memory:'
        ? undefined
        : threadedSqliteWriter({
            database: this.database,
            roots: directories.roots,
            maxFileSize: options.maxFileSize ?? defaultMaxFileSize,
            ...(options.closeGraceMs !== undefined ? { closeGraceMs: options.closeGraceMs } : {}),
            ...(options.preparationModule ? { preparationModule: options.preparationModule } : {}),
          });
    this.closeGraceMs = options.closeGraceMs ?? defaultCloseGraceMs;
    this.indexing = new DirectoryIndexing({
      directories,
      writer: this.threadedWriter ?? sqliteWriter(this.database),
      excludedPaths,
      ...(options.maxFileSize !== undefined ? { maxFileSize: options.maxFileSize } : {}),
      ...(options.batchFiles !== undefined ? { batchFiles: options.batchFiles } : {}),
    });
  }

  /** The index file. */
  get location(): string {
    return this.database.file;
  }

  /** The allowed directories. */
  get directories(): AllowedDirectories {
    return this.indexing.directories;
  }

  /** The indexer that fills the index. */
  get indexer(): Indexer {
    return this.indexing.indexer;
  }

  /** Refreshes every allowed directory, one after another. */
  refreshAll(
    options: { signal?: AbortSignal; onProgress?: (progress: IndexProgress) => void } = {},
  ): Promise<IndexReport[]> {
    return this.indexing.refreshAll(options);
  }

  get ready(): boolean {
    return this.indexing.ready;
  }

  whenReady(timeoutMs: number): Promise<boolean> {
    return this.indexing.whenReady(timeoutMs);
  }

  /**
   * Searches the index. An index file is searched on worker threads under a deadline and the signal, so a broad
   * query never holds the event loop; an in-memory index (tests, embedding) can only be searched on this thread.
   */
  async search(query: SearchQuery, options: { signal?: AbortSignal } = {}): Promise<SearchPage> {
    const request = { ...query, roots: this.directories.roots };
    const page = await this.searchOnce(request, options);
    const changed = page.hits.filter((hit) => hit.changed);
    if (changed.length === 0) return page;
    // Files that changed since they were indexed have no trustworthy snippet or line: their folders are indexed
    // again at once (only changed files are read), and the search is repeated if that ends soon enough.
    const folders = new Set(changed.map((hit) => dirname(hit.path)));
    const refreshed = Promise.all([...folders].map((folder) => this.refreshChanged(folder))).then(
      (results) => results.every(Boolean),
      () => false,
    );
    const again = (await settlesWithin(refreshed, changedFileWaitMs)) && (await refreshed);
    return again ? this.searchOnce(request, options) : page;
  }

  /**
   * Indexes a folder again for the searches that met a changed file in it: searches at once share one refresh of a
   * folder (each queued its own walk: 20 searches walked the folder 20 times, and a process that kept a file at the
   * root changing kept the queue growing with every search). Resolves false when the refresh failed.
   */
  private refreshChanged(folder: string): Promise<boolean> {
    let refresh = this.changedFolderRefreshes.get(folder);
    if (!refresh) {
      refresh = this.indexer.refresh(folder).then(
        () => true,
        () => false,
      );
      const started = refresh;
      this.changedFolderRefreshes.set(folder, started);
      void started.then(() => {
        if (this.changedFolderRefreshes.get(folder) === started) this.changedFolderRefreshes.delete(folder);
      });
    }
    return refresh;
  }

  private searchOnce(request: SearchRequest, options: { signal?: AbortSignal }): Promise<SearchPage> {
    if (this.database.file === ':memory:') return Promise.resolve(searchIndex(this.database, request));
    this.searchWorkers ??= createSearchWorkers(this.database.file);
    return this.searchWorkers.search(request, options);
  }

  async counts(): Promise<{ documents: number; bytes: number }> {
    return this.database.counts();
  }

  async listDocuments(limit: number): Promise<ListedDocument[]> {
    return this.database.listDocuments(limit);
  }

  /** Reads a file from disk through a checked descriptor, inside the directories. */
  readDocument(path: string, limits: ReadLimits): Promise<DocumentText> {
    return readConfinedFile(this.directories, path, limits);
  }

  /**
   * Stops watching, lets a running refresh stop at its next batch, then closes the database. A refresh waiting on a
   * thread stuck in a read (a hung mount) is not waited for past a grace period: the writer's threads are stopped,
   * which fails what the refresh waits for.
   */
  async close(): Promise<void> {
    const indexingClosed = this.indexing.close();
    if (!(await settlesWithin(indexingClosed, this.closeGraceMs))) await this.threadedWriter?.close();
    await Promise.all([indexingClosed, this.searchWorkers?.close()]);
    await this.threadedWriter?.close();
    this.database.close();
  }
}
