import { hostname } from 'node:os';
import type pg from 'pg';
import type { DocumentWriter, IndexedDocument, StoredFile } from '../local-index/index-writer.js';
import { storedFileMap } from '../local-index/stored-file-map.js';
import { cancelOnAbort } from './cancel-on-abort.js';
import { abandonRebuild, finishRebuild, startRebuild } from './postgres-rebuild.js';
import { ensureSchema, textSearchConfiguration } from './postgres-schema.js';
import type { SourceRoots } from './source-roots.js';

/** The advisory lock all writers of one database take turns on (any 64-bit number unlikely to be used elsewhere). */
export const writeLockKey = '7303511930162212935';

/** The application name writers show in pg_stat_activity, which the waiting message quotes. */
export const writerApplicationName = `mcpkit-search indexer on ${hostname()} pid ${process.pid}`;

/** PostgreSQL text cannot hold NUL; a file with a NUL past its first 8 KB still indexes. */
function clean(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', ' ') : text;
}

/** Folder and file names as words: `hr/vacation-policy.md` ranks for "vacation" and "policy". */
function pathWords(relativePath: string): string {
  return relativePath.replace(/[/\\._-]+/g, ' ');
}

/** Takes the write lock on `connection`, saying who holds it and waiting when another writer does. */
async function lockIndex(
  pool: pg.Pool,
  connection: pg.PoolClient,
  onWait: (message: string) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { rows } = await connection.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
    writeLockKey,
  ]);
  if (rows[0]?.locked) return;
  const holder = await connection
    .query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND (l.classid::bigint << 32 | l.objid::bigint) = $1::bigint LIMIT 1`,
      [writeLockKey],
    )
    .then((result) => result.rows[0]?.name)
    .catch(() => undefined);
  onWait(`another indexer${holder ? ` (${holder})` : ''} is writing this index; this one waits for its turn`);
  await cancelOnAbort(pool, connection, signal, () => connection.query('SELECT pg_advisory_lock($1)', [writeLockKey]));
}

/** Lets the next writer in and returns the connection to the pool. */
async function unlockIndex(connection: pg.PoolClient): Promise<void> {
  try {
    await connection.query('SELECT pg_advisory_unlock($1)', [writeLockKey]);
    connection.release();
  } catch (error) {
    // Closing the session frees its lock in any case.
    connection.release(error instanceof Error ? error : true);
  }
}

/** The writes of a shared index, and its full rebuild. */
export interface PostgresWriter extends DocumentWriter {
  /**
   * Runs `indexAll` (indexing every folder) into new, empty tables under one hold of the write lock, then swaps
   * them in for the index in one transaction; readers answer from the old tables until then. A failed or cancelled
   * `indexAll` leaves the index as it was.
   */
  rebuild<Result>(
    indexAll: () => Promise<Result>,
    onWait: (message: string) => void,
    signal?: AbortSignal,
  ): Promise<Result>;
}

/**
 * The indexer's writes to a shared index. A run holds one connection and a session advisory lock from `acquire`
 * to its release, so several writers (on one machine or many) take turns, and a waiting one says who it waits for.
 * During a rebuild every run uses the rebuild's connection, which holds the lock throughout.
 */
export function postgresWriter(pool: pg.Pool, sources: SourceRoots): PostgresWriter {
  let client: pg.PoolClient | undefined;
  let rebuilding: pg.PoolClient | undefined;
  const session = () => {
    if (!client) throw new Error('A shared-index write ran outside acquire().');
    return client;
  };
  return {
    async acquire(onWait, signal) {
      if (rebuilding) {
        client = rebuilding;
        return async () => {
          client = undefined;
        };
      }
      const connection = await pool.connect();
      try {
        await lockIndex(pool, connection, onWait, signal);
        await ensureSchema(connection);
      } catch (error) {
        connection.release(true);
        throw error;
      }
      client = connection;
      return async () => {
        client = undefined;
        await unlockIndex(connection);
      };
    },

    async rebuild(indexAll, onWait, signal) {
      const connection = await pool.connect();
      try {
        await lockIndex(pool, connection, onWait, signal);
      } catch (error) {
        connection.release(true);
        throw error;
      }
      try {
        try {
          // Inside the try: a start that failed after switching the session's schema is undone before release.
          const schema = await startRebuild(connection);
          rebuilding = connection;
          const result = await indexAll();
          signal?.throwIfAborted();
          await finishRebuild(connection, schema);
          return result;
        } catch (error) {
          await abandonRebuild(connection).catch(() => {});
          throw error;
        } finally {
          rebuilding = undefined;
        }
      } finally {
        await unlockIndex(connection);
      }
    },

    async storedFilesUnder(root, directory) {
      const source = sources.nameOf(root);
      const prefix = sources.relativePath(root, directory);
      const { rows } = await session().query<{ id: string; path: string; size: string; mtime_ms: string }>(
        `SELECT id, path, size, mtime_ms FROM search_documents
         WHERE source = $1 AND ($2 = '' OR path = $2 OR starts_with(path, $2 || '/'))`,
        [source, prefix],
      );
      const stored = new Map<string, StoredFile>();
      for (const row of rows) {
        stored.set(sources.absolutePath(root, row.path), {
          id: Number(row.id),
          size: Number(row.size),
          mtimeMs: Number(row.mtime_ms),
        });
      }
      return storedFileMap(stored);
    },

    async writeDocuments(documents: readonly IndexedDocument[]) {
      if (documents.length === 0) return;
      const connection = session();
      // Three statements per batch, whatever its size: the documents, their old passages gone, their new passages.
      await connection.query('BEGIN');
      try {
        const { rows } = await connection.query<{ id: string; source: string; path: string }>(
          `INSERT INTO search_documents (source, path, size, mtime_ms, title, line_count, is_text, content)
           SELECT source, path, size, mtime_ms, title, line_count, is_text, content FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::integer[],
                                $7::boolean[], $8::text[]) WITH ORDINALITY AS batch (source, path, size, mtime_ms, title, line_count, is_text, content, position)
           ORDER BY position
           ON CONFLICT (source, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
             title = excluded.title, line_count = excluded.line_count, is_text = excluded.is_text,
             content = excluded.content
           RETURNING id, source, path`,
          [
            documents.map((document) => sources.nameOf(document.root)),
            documents.map((document) => document.relativePath),
            documents.map((document) => document.size),
            documents.map((document) => Math.trunc(document.mtimeMs)),
            documents.map((document) => clean(document.title)),
            documents.map((document) => document.lineCount),
            documents.map((document) => document.text),
            documents.map((document) => clean(document.content)),
          ],
        );
        const idOf = new Map(rows.map((row) => [`${row.source}/${row.path}`, row.id]));
        const ids = documents.map((document) => idOf.get(`${sources.nameOf(document.root)}/${document.relativePath}`));
        await connection.query('DELETE FROM search_passages WHERE document_id = ANY($1::bigint[])', [ids]);
        const passages = {
          document: [] as string[],
          line: [] as number[],
          body: [] as string[],
          title: [] as string[],
          path: [] as string[],
        };
        documents.forEach((document, index) => {
          const title = clean(document.title);
          const path = pathWords(document.relativePath);
          for (const passage of document.passages) {
            passages.document.push(ids[index] as string);
            passages.line.push(passage.line);
            passages.body.push(clean(passage.body));
            passages.title.push(title);
            passages.path.push(path);
          }
        });
        if (passages.body.length > 0) {
          await connection.query(
            `INSERT INTO search_passages (document_id, line, body, length, terms)
             SELECT passage.document_id, passage.line, passage.body,
                    (SELECT coalesce(sum(cardinality(entry.positions)), 0) FROM unnest(weighted.terms) AS entry),
                    weighted.terms
             FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::text[], $5::text[])
                  AS passage (document_id, line, body, title, path)
             CROSS JOIN LATERAL (
               SELECT setweight(to_tsvector('${textSearchConfiguration}', passage.title), 'A')
                   || setweight(to_tsvector('${textSearchConfiguration}', passage.path), 'B')
                   || setweight(to_tsvector('${textSearchConfiguration}', passage.body), 'D') AS terms
             ) AS weighted`,
            [passages.document, passages.line, passages.body, passages.title, passages.path],
          );
        }
        await connection.query('COMMIT');
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => {});
        throw error;
      }
    },

    async deleteDocuments(ids) {
      await session().query('DELETE FROM search_documents WHERE id = ANY($1::bigint[])', [ids.map(String)]);
    },

    async startBulkLoad() {},

    async finishBulkLoad(keepGoing) {
      // Fresh statistics after a large load keep the planner on the GIN index.
      if (keepGoing()) await session().query('ANALYZE search_documents, search_passages');
    },
  };
}
