import { KitError, ToolError } from '@mcpkit/server-kit';
import pg from 'pg';
import { AllowedDirectories } from '../allowed-directories.js';
import type { ReadLimits } from '../confined-file.js';
import { sharedUris } from '../document-uris.js';
import { DirectoryIndexing } from '../local-index/directory-indexing.js';
import type { IndexProgress, IndexReport } from '../local-index/indexer.js';
import type { SearchPage } from '../local-index/search-query.js';
import type { DocumentText, ListedDocument, SearchIndex, SearchQuery } from '../search-index.js';
import { describeDatabaseError } from './database-errors.js';
import { type Ranking, searchPostgres, searchSessionOptions } from './postgres-search.js';
import { type PostgresWriter, postgresWriter, writerApplicationName } from './postgres-writer.js';
import { SourceRoots } from './source-roots.js';
import { urlWithoutPassword } from './url-without-password.js';

/** How a shared index in PostgreSQL is opened. */
export interface PostgresIndexOptions {
  /** The connection URL, `postgres://user:password@host:port/database`. */
  url: string;
  /**
   * Folders this process indexes into the database and watches (resolved here unless they are already); none for a
   * reader.
   */
  directories?: readonly string[] | AllowedDirectories;
  /** The source name of each folder, in order (default: the folder's own name). */
  sourceNames?: readonly string[];
  /** Files larger than this many bytes are skipped; defaults to 1 MiB. */
  maxFileSize?: number;
  /** Files per transaction at most (default 2000). */
  batchFiles?: number;
  /** How results are ranked (default BM25; ts_rank_cd is kept for measurement). */
  ranking?: Ranking;
}

/** How long a read waits for this process's first indexing run, as searches do. */
const readyWaitMs = 15_000;

/**
 * A search index in PostgreSQL, shared by many server processes: readers search it and read documents from the
 * text it stores (never from their own disk); a process given folders also indexes them, taking turns with other
 * writers through an advisory lock.
 */
export class PostgresIndex implements SearchIndex {
  readonly location: string;
  readonly indexing: DirectoryIndexing | undefined;
  readonly documentUris = sharedUris;
  private readonly pool: pg.Pool;
  private readonly searchPool: pg.Pool;
  private readonly sources: SourceRoots | undefined;
  private readonly writer: PostgresWriter | undefined;
  private readonly ranking: Ranking;

  constructor(options: PostgresIndexOptions) {
    this.location = urlWithoutPassword(options.url);
    this.ranking = options.ranking ?? 'bm25';
    const given = options.directories ?? [];
    const writes = given instanceof AllowedDirectories || given.length > 0;
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: 4,
      application_name: writes ? writerApplicationName : 'mcpkit-search',
      connectionTimeoutMillis: 10_000,
    });
    // Searches have connections of their own, opened with their settings (read-only, timeout, no JIT).
    this.searchPool = new pg.Pool({
      connectionString: options.url,
      max: 4,
      application_name: 'mcpkit-search',
      connectionTimeoutMillis: 10_000,
      options: searchSessionOptions,
    });
    // An idle connection that the server drops must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
    this.searchPool.on('error', () => {});
    if (writes) {
      const directories = AllowedDirectories.of(given);
      this.sources = new SourceRoots(directories.roots, options.sourceNames);
      this.writer = postgresWriter(this.pool, this.sources);
      this.indexing = new DirectoryIndexing({
        directories,
        writer: this.writer,
        ...(options.maxFileSize !== undefined ? { maxFileSize: options.maxFileSize } : {}),
        ...(options.batchFiles !== undefined ? { batchFiles: options.batchFiles } : {}),
      });
    }
  }

  get ready(): boolean {
    return this.indexing?.ready ?? true;
  }

  async whenReady(timeoutMs: number): Promise<boolean> {
    return this.indexing ? this.indexing.whenReady(timeoutMs) : true;
  }

  search(query: SearchQuery, options: { signal?: AbortSignal } = {}): Promise<SearchPage> {
    return searchPostgres(this.searchPool, query, { ...options, ranking: this.ranking });
  }

  /**
   * Indexes every folder again into new tables, under one hold of the write lock, and swaps them in for the index
   * in one transaction at the end (the SELECT grants carried over); readers keep answering from the old tables until
   * then. Cancelled or failed, it leaves the index as it was.
   */
  async rebuild(
    options: { signal?: AbortSignal; onProgress?: (progress: IndexProgress) => void } = {},
  ): Promise<IndexReport[]> {
    const { writer, indexing } = this;
    if (!writer || !indexing) throw new KitError('INVALID_OPTIONS', 'Only a process given folders rebuilds the index.');
    return writer.rebuild(
      () => indexing.refreshAll(options),
      (message) => options.onProgress?.({ directory: '', phase: 'waiting', done: 0, message }),
      options.signal,
    );
  }

  async counts(): Promise<{ documents: number; bytes: number }> {
    const { rows } = await this.query<{ documents: string; bytes: string }>(
      'SELECT count(*) AS documents, coalesce(sum(size), 0) AS bytes FROM search_documents WHERE is_text',
    );
    return { documents: Number(rows[0]?.documents ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
  }

  async listDocuments(limit: number): Promise<ListedDocument[]> {
    const { rows } = await this.query<{ path: string; title: string; size: string }>(
      `SELECT source || '/' || path AS path, title, size FROM search_documents WHERE is_text
       ORDER BY source, path LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({ path: row.path, title: row.title, size: Number(row.size) }));
  }

  /**
   * Reads a document from the text the index stores, so that every reader, on any machine, shows the version the
   * index searched. `path` is `source/path` as results show it, a path relative to the first source, or (on a
   * writer) an absolute path inside its folders; nothing outside the index can be named.
   */
  async readDocument(path: string, limits: ReadLimits): Promise<DocumentText> {
    await this.whenReady(readyWaitMs);
    const candidates: { source: string; path: string }[] = [];
    const local = this.sources?.locate(path);
    if (local) candidates.push(local);
    const normalized = path.replace(/^\/+/, '');
    const slash = normalized.indexOf('/');
    if (slash > 0) candidates.push({ source: normalized.slice(0, slash), path: normalized.slice(slash + 1) });
    const first = this.sources?.names[0];
    if (first !== undefined) candidates.push({ source: first, path: normalized });
    const refused = new ToolError(
      `${path} does not exist in the index; search for it and pass the path a result shows (source/path).`,
    );
    if (normalized.split('/').includes('..')) throw refused;
    for (const candidate of candidates) {
      const { rows } = await this.query<{ is_text: boolean; bytes: number; content: string | null }>(
        `SELECT is_text, octet_length(content) AS bytes, CASE WHEN octet_length(content) <= $3 THEN content END AS content
         FROM search_documents WHERE source = $1 AND path = $2`,
        [candidate.source, candidate.path, limits.maxBytes],
      );
      const row = rows[0];
      if (!row) continue;
      if (!row.is_text) throw new ToolError(`${path} is a binary file, not text.`);
      if (row.content === null) throw new ToolError(limits.tooLarge(path));
      return { path: `${candidate.source}/${candidate.path}`, bytes: Buffer.from(row.content, 'utf8') };
    }
    throw refused;
  }

  private async query<Row extends pg.QueryResultRow>(
    sql: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<Row>> {
    try {
      return await this.pool.query<Row>(sql, values);
    } catch (error) {
      throw describeDatabaseError(error);
    }
  }

  /** Stops indexing and watching, then closes the connections. */
  async close(): Promise<void> {
    await this.indexing?.close();
    await Promise.all([this.pool.end(), this.searchPool.end()]);
  }
}
