import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import Database from 'better-sqlite3';

/** Passages of one document get rowids `documentId * passagesPerDocument + n`, so a document's are one rowid range. */
export const passagesPerDocument = 65_536;

/** Title, path and body weights of BM25: a match in the title or path counts more than one in the text. */
export const rankWeights = { title: 6, path: 4, body: 1 } as const;

/** The FTS5 tokenizer of the passages; queries that must tokenize as the index does use the same. */
export const passageTokenizer = 'porter unicode61 remove_diacritics 2';

/** SQLite's page size for a new index file. */
const pageBytes = 8192;

/**
 * Version 3: contentless passages (the text is read again from the files), a digest per file, and per file the byte
 * range, first line and digest of each passage (`spans`), so that a hit reads only its passage.
 */
const schemaVersion = '3';

/** What the index stores about a file besides its passages. */
export interface StoredDocument {
  id: number;
  path: string;
  size: number;
  mtimeMs: number;
  title: string;
  lineCount: number;
  /** False for files that were looked at but hold no text (binary); kept so a re-run does not read them again. */
  text: boolean;
  /** The digest of the bytes indexed (`contentDigest`), to tell at query time whether the file still holds them. */
  digest: Uint8Array;
  /** Each passage's byte range, line and digest (`encodeSpans`); null when hits read the whole file (HTML). */
  spans: Uint8Array | null;
}

/** One passage to store: where it starts and its text. */
export interface PassageInput {
  line: number;
  body: string;
}

/** A document to store, with the relative path that is searched for path matches. */
export interface DocumentInput {
  path: string;
  relativePath: string;
  size: number;
  mtimeMs: number;
  title: string;
  lineCount: number;
  text: boolean;
  /** The digest of the file's bytes (`contentDigest`). */
  digest: Uint8Array;
  /** Each passage's byte range, line and digest (`encodeSpans`), when every passage is a stretch of the file's bytes. */
  spans?: Uint8Array;
  passages: PassageInput[];
}

/**
 * The SQLite file of the index: a documents table and a contentless FTS5 table of passages. The passages' text is not
 * stored (it would double the file): snippets read it again from the files (`readStoredPassages`).
 */
export class IndexDatabase {
  readonly file: string;
  private readonly database: Database.Database;
  private readonly statements;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.file = file;
    this.database = new Database(file);
    // Larger pages hold the FTS5 segments with less overhead; this takes effect on a new file only (not in WAL mode).
    this.database.pragma(`page_size = ${pageBytes}`);
    this.database.pragma('journal_mode = WAL');
    this.database.pragma('synchronous = NORMAL');
    this.migrate();
    const database = this.database;
    this.statements = {
      insertDocument: database.prepare(
        `INSERT INTO documents (path, size, mtime_ms, title, line_count, text, digest, spans)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      updateDocument: database.prepare(
        `UPDATE documents SET size = ?, mtime_ms = ?, title = ?, line_count = ?, text = ?, digest = ?, spans = ?
         WHERE id = ?`,
      ),
      findDocument: database.prepare(`SELECT id FROM documents WHERE path = ?`),
      getDocument: database.prepare(
        `SELECT id, path, size, mtime_ms AS mtimeMs, title, line_count AS lineCount, text, digest, spans
         FROM documents WHERE path = ?`,
      ),
      deleteDocument: database.prepare(`DELETE FROM documents WHERE id = ?`),
      deletePassages: database.prepare(
        `DELETE FROM passages WHERE rowid >= CAST(? AS INTEGER) AND rowid < CAST(? AS INTEGER)`,
      ),
      insertPassage: database.prepare(
        `INSERT INTO passages (rowid, title, path, body) VALUES (CAST(? AS INTEGER), ?, ?, ?)`,
      ),
      storedFilesBetween: database
        .prepare(`SELECT id, path, size, mtime_ms FROM documents WHERE path > ? AND path < ? ORDER BY path LIMIT ?`)
        .raw(),
      counts: database.prepare(
        `SELECT count(*) AS documents, coalesce(sum(size), 0) AS bytes FROM documents WHERE text = 1`,
      ),
      listDocuments: database.prepare(
        `SELECT path, title, size FROM documents WHERE text = 1 ORDER BY path LIMIT ? OFFSET ?`,
      ),
    };
  }

  private migrate(): void {
    const database = this.database;
    database.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    const version = database.prepare(`SELECT value FROM meta WHERE key = 'schema'`).pluck().get() as string | undefined;
    if (version === schemaVersion) return;
    // An index is a cache of the files: a file from another schema is rebuilt rather than converted, and its pages
    // given back to the file system (cheap once the tables are dropped).
    database.exec(`DROP TABLE IF EXISTS passages; DROP TABLE IF EXISTS documents;`);
    // Pages freed by merges go back to the file system after a bulk load (`releaseFreePages`); on a file that had tables
    // the setting takes effect through the VACUUM.
    database.pragma('auto_vacuum = INCREMENTAL');
    if (version !== undefined || database.pragma('auto_vacuum', { simple: true }) !== 2) database.exec('VACUUM');
    const pageSize = database.pragma('page_size', { simple: true }) as number;
    database.exec(`
      CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        title TEXT NOT NULL,
        line_count INTEGER NOT NULL,
        text INTEGER NOT NULL,
        digest BLOB NOT NULL,
        spans BLOB
      );
      CREATE VIRTUAL TABLE passages USING fts5(
        title, path, body,
        content = '', contentless_delete = 1,
        tokenize = '${passageTokenizer}'
      );
      INSERT INTO passages (passages, rank) VALUES ('pgsz', ${pageSize - 46});
      INSERT INTO passages (passages, rank) VALUES ('rank', 'bm25(${rankWeights.title}, ${rankWeights.path}, ${rankWeights.body})');
      INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', '${schemaVersion}');
    `);
  }

  /** Runs `work` in one transaction (one fsync for a whole batch of files). */
  transaction<T>(work: () => T): T {
    return this.database.transaction(work)();
  }

  /**
   * Runs `work` on each item inside one transaction (one FTS5 segment and one fsync for the batch), yielding to the
   * event loop whenever `sliceMs` have passed, so a batch of megabytes of text does not hold the server for a second.
   * Reads between the slices see the batch so far; writes are serialized by the indexer's queue.
   */
  async slicedTransaction<T>(items: readonly T[], work: (item: T) => void, sliceMs: number): Promise<void> {
    this.database.exec('BEGIN');
    try {
      let sliceStart = performance.now();
      for (const item of items) {
        work(item);
        if (performance.now() - sliceStart > sliceMs) {
          await yieldToEventLoop();
          sliceStart = performance.now();
        }
      }
      this.database.exec('COMMIT');
    } catch (error) {
      if (this.database.inTransaction) this.database.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * Up to `limit` stored files whose paths sort after `after` and before `before`, in path order (code points, the
   * BINARY collation), as rows of id, path, size and mtime: a page of `StoredFileCursor`, read through the path index.
   */
  storedFilesBetween(after: string, before: string, limit: number): [number, string, number, number][] {
    return this.statements.storedFilesBetween.all(after, before, limit) as [number, string, number, number][];
  }

  /** The id of the document stored at `path`, if any. */
  documentIdAt(path: string): number | undefined {
    return (this.statements.findDocument.get(path) as { id: number } | undefined)?.id;
  }

  /** Stores a document and its passages, replacing what was stored for the same path. */
  putDocument(document: DocumentInput): void {
    const existing = this.statements.findDocument.get(document.path) as { id: number } | undefined;
    let id: number;
    if (existing) {
      id = existing.id;
      this.deletePassagesOf(id);
      this.statements.updateDocument.run(
        document.size,
        document.mtimeMs,
        document.title,
        document.lineCount,
        document.text ? 1 : 0,
        document.digest,
        document.spans ?? null,
        id,
      );
    } else {
      const inserted = this.statements.insertDocument.run(
        document.path,
        document.size,
        document.mtimeMs,
        document.title,
        document.lineCount,
        document.text ? 1 : 0,
        document.digest,
        document.spans ?? null,
      );
      id = Number(inserted.lastInsertRowid);
    }
    const base = id * passagesPerDocument;
    document.passages.slice(0, passagesPerDocument).forEach((passage, index) => {
      this.statements.insertPassage.run(base + index, document.title, document.relativePath, passage.body);
    });
  }

  /** Removes a document and its passages. */
  deleteDocument(id: number): void {
    this.deletePassagesOf(id);
    this.statements.deleteDocument.run(id);
  }

  private deletePassagesOf(id: number): void {
    this.statements.deletePassages.run(id * passagesPerDocument, (id + 1) * passagesPerDocument);
  }

  /** One stored document by its path. */
  getDocument(path: string): StoredDocument | undefined {
    const row = this.statements.getDocument.get(path) as (Omit<StoredDocument, 'text'> & { text: number }) | undefined;
    return row ? { ...row, text: row.text === 1 } : undefined;
  }

  /** How many text documents and bytes the index holds. */
  counts(): { documents: number; bytes: number } {
    return this.statements.counts.get() as { documents: number; bytes: number };
  }

  /** A page of the text documents, by path. */
  listDocuments(limit: number, offset = 0): { path: string; title: string; size: number }[] {
    return this.statements.listDocuments.all(limit, offset) as { path: string; title: string; size: number }[];
  }

  /** The underlying connection, for the search queries. */
  get connection(): Database.Database {
    return this.database;
  }

  /**
   * Defers FTS5's merging for a bulk load (which then merges once at the end), or lets it merge a little with each
   * write again. Both set FTS5's two merge settings, `automerge` and `crisismerge`.
   * Merging as segments pile up rewrites the index several times over; one merge at the end builds about 30% faster.
   *
   * Deferred means `automerge` 0 and `crisismerge` 64: `crisismerge` merges a level at once when it holds that many
   * segments even with `automerge` at 0 (16 by default). A bulk load of the 100,000 bench files writes about 30
   * segments: at 16, a crisis merge rewrote the first 16 during the load and the final merge then rewrote everything
   * twice more. At 64, every term is written once by its transaction and once by the final merge (the storing
   * thread's CPU 45.0 -> 36.5 s in the same runs; bench/search/README.md). A larger bulk load still merges every 64
   * segments, so a search while it runs reads at most about 64 segments a level.
   *
   * Not deferred means `automerge` 4 and still `crisismerge` 64: a cancelled or killed load leaves up to 63 segments
   * unmerged, and at 16 the next write, even of one file, merged all of them at once (28 segments of a 60,000-file
   * load: 5.1 s); at 64, `automerge` merges them a little with each later write.
   */
  setDeferredMerging(deferred: boolean): void {
    // FTS5 wants an integer and better-sqlite3 binds numbers as REAL, hence a literal.
    this.database.exec(`INSERT INTO passages (passages, rank) VALUES ('automerge', ${deferred ? 0 : 4})`);
    this.database.exec(`INSERT INTO passages (passages, rank) VALUES ('crisismerge', 64)`);
  }

  /**
   * Sets how many bytes of pending terms FTS5 holds in memory before it writes them as a segment (FTS5's `hashsize`;
   * its default is 1 MiB). A bulk load in large transactions raises it so each commit writes one large segment.
   */
  setPendingTermBytes(bytes: number): void {
    this.database.exec(`INSERT INTO passages (passages, rank) VALUES ('hashsize', ${Math.trunc(bytes)})`);
  }

  /** Begins a transaction unless one is open (one kept open across several batches of a bulk load). */
  beginIfNone(): void {
    if (!this.database.inTransaction) this.database.exec('BEGIN');
  }

  /** Commits the open transaction, if any. */
  commitIfOpen(): void {
    if (this.database.inTransaction) this.database.exec('COMMIT');
  }

  /** Rolls the open transaction back, if any. */
  rollbackIfOpen(): void {
    if (this.database.inTransaction) this.database.exec('ROLLBACK');
  }

  /** Merges some FTS5 segments (about `pages` pages of work); false when there was nothing left to merge. */
  mergeStep(pages = 2000): boolean {
    const before = this.totalChanges();
    this.database.exec(`INSERT INTO passages (passages, rank) VALUES ('merge', ${-Math.trunc(pages)})`);
    return this.totalChanges() - before >= 2;
  }

  /** Gives up to `pages` pages that merges freed back to the file system; false when none are left. */
  releaseFreePages(pages = 500): boolean {
    this.database.pragma(`incremental_vacuum(${Math.trunc(pages)})`);
    return (this.database.pragma('freelist_count', { simple: true }) as number) > 0;
  }

  /** Copies the write-ahead log into the file and empties it (after a bulk load, whose log is as large as the index). */
  checkpoint(): void {
    this.database.pragma('wal_checkpoint(TRUNCATE)');
  }

  private totalChanges(): number {
    return this.database.prepare('SELECT total_changes()').pluck().get() as number;
  }

  close(): void {
    if (this.database.open) this.database.close();
  }
}
