import { hostname } from 'node:os';
import type pg from 'pg';
import type { IndexedDocument, IndexWriter, StoredFile } from '../local-index/index-writer.js';
import { cancelOnAbort } from './cancel-on-abort.js';
import { ensureSchema, textSearchConfiguration } from './postgres-schema.js';
import type { SourceRoots } from './source-roots.js';

/** The advisory lock all writers of one database take turns on (any 64-bit number unlikely to be used elsewhere). */
const writeLockKey = '7303511930162212935';

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

/**
 * The indexer's writes to a shared index. A run holds one connection and a session advisory lock from `acquire`
 * to its release, so several writers (on one machine or many) take turns, and a waiting one says who it waits for.
 */
export function postgresWriter(pool: pg.Pool, sources: SourceRoots): IndexWriter {
  let client: pg.PoolClient | undefined;
  const session = () => {
    if (!client) throw new Error('A shared-index write ran outside acquire().');
    return client;
  };
  return {
    async acquire(onWait, signal) {
      const connection = await pool.connect();
      try {
        const { rows } = await connection.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
          writeLockKey,
        ]);
        if (!rows[0]?.locked) {
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
          await cancelOnAbort(pool, connection, signal, () =>
            connection.query('SELECT pg_advisory_lock($1)', [writeLockKey]),
          );
        }
        await ensureSchema(connection);
      } catch (error) {
        connection.release(true);
        throw error;
      }
      client = connection;
      return async () => {
        client = undefined;
        try {
          await connection.query('SELECT pg_advisory_unlock($1)', [writeLockKey]);
          connection.release();
        } catch (error) {
          // Closing the session frees its lock in any case.
          connection.release(error instanceof Error ? error : true);
        }
      };
    },

    async documentsUnder(root, directory) {
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
      return stored;
    },

    async writeDocuments(documents: readonly IndexedDocument[]) {
      const connection = session();
      await connection.query('BEGIN');
      try {
        for (const document of documents) {
          const { rows } = await connection.query<{ id: string }>(
            `INSERT INTO search_documents (source, path, size, mtime_ms, title, line_count, is_text, content)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (source, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
               title = excluded.title, line_count = excluded.line_count, is_text = excluded.is_text,
               content = excluded.content
             RETURNING id`,
            [
              sources.nameOf(document.root),
              document.relativePath,
              document.size,
              Math.trunc(document.mtimeMs),
              clean(document.title),
              document.lineCount,
              document.text,
              clean(document.content),
            ],
          );
          const id = rows[0]?.id;
          await connection.query('DELETE FROM search_passages WHERE document_id = $1', [id]);
          if (document.passages.length === 0) continue;
          await connection.query(
            `INSERT INTO search_passages (document_id, line, body, length, terms)
             SELECT $1, passage.line, passage.body,
                    (SELECT coalesce(sum(cardinality(entry.positions)), 0) FROM unnest(weighted.terms) AS entry),
                    weighted.terms
             FROM unnest($2::integer[], $3::text[]) AS passage (line, body)
             CROSS JOIN LATERAL (
               SELECT setweight(to_tsvector('${textSearchConfiguration}', $4), 'A')
                   || setweight(to_tsvector('${textSearchConfiguration}', $5), 'B')
                   || setweight(to_tsvector('${textSearchConfiguration}', passage.body), 'D') AS terms
             ) AS weighted`,
            [
              id,
              document.passages.map((passage) => passage.line),
              document.passages.map((passage) => clean(passage.body)),
              clean(document.title),
              pathWords(document.relativePath),
            ],
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
