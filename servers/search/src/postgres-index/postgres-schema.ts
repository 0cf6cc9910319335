import type pg from 'pg';

/** The text search configuration of the index and of queries: English stemming and stop words. */
export const textSearchConfiguration = 'english';

/** Changes when the tables change; an index of another version is rebuilt by the next writer. */
export const schemaVersion = '1';

/** The tables a reader role needs SELECT on. */
export const indexTables = ['search_meta', 'search_documents', 'search_passages', 'search_stats'] as const;

/**
 * Keeps each passage's tsvector in its row (compressed), not in the TOAST table, where ranking fetched it through
 * TOAST's index for every matching passage: a query matching every passage took 1.3-1.7 times as long. Applies to
 * rows written from then on (an index of an earlier version of this layout gets it through `index --rebuild`).
 */
async function keepTermsInline(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ storage: string }>(
    `SELECT attstorage AS storage FROM pg_attribute WHERE attrelid = 'search_passages'::regclass AND attname = 'terms'`,
  );
  if (rows[0] && rows[0].storage !== 'm') {
    await client.query('ALTER TABLE search_passages ALTER COLUMN terms SET STORAGE MAIN');
  }
}

/**
 * Creates the tables of a shared index, or rebuilds them when an older layout is found. Run by writers only, under
 * the write lock. Passages carry a weighted tsvector (title A, path B, body D) under a GIN index and their token
 * count; `search_stats` keeps the passage and token totals BM25 needs, updated by statement triggers.
 */
export async function ensureSchema(client: pg.ClientBase): Promise<void> {
  await client.query('CREATE TABLE IF NOT EXISTS search_meta (key text PRIMARY KEY, value text NOT NULL)');
  const { rows } = await client.query<{ value: string }>(`SELECT value FROM search_meta WHERE key = 'schema'`);
  if (rows[0]?.value === schemaVersion) {
    await keepTermsInline(client);
    return;
  }
  await client.query('BEGIN');
  try {
    await client.query(`
      DROP TABLE IF EXISTS search_passages, search_documents, search_stats CASCADE;
      CREATE TABLE search_documents (
        id bigserial PRIMARY KEY,
        source text NOT NULL,
        path text NOT NULL,
        size bigint NOT NULL,
        mtime_ms bigint NOT NULL,
        title text NOT NULL,
        line_count integer NOT NULL,
        is_text boolean NOT NULL,
        content text NOT NULL,
        UNIQUE (source, path)
      );
      CREATE TABLE search_passages (
        id bigserial PRIMARY KEY,
        document_id bigint NOT NULL REFERENCES search_documents (id) ON DELETE CASCADE,
        line integer NOT NULL,
        body text NOT NULL,
        length integer NOT NULL,
        terms tsvector NOT NULL
      );
      ALTER TABLE search_passages ALTER COLUMN terms SET STORAGE MAIN;
      CREATE INDEX search_passages_terms ON search_passages USING gin (terms);
      CREATE INDEX search_passages_document ON search_passages (document_id);
      CREATE TABLE search_stats (passages bigint NOT NULL, tokens bigint NOT NULL);
      INSERT INTO search_stats VALUES (0, 0);
      CREATE OR REPLACE FUNCTION search_stats_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE search_stats SET passages = passages + (SELECT count(*) FROM added),
                                tokens = tokens + (SELECT coalesce(sum(length), 0) FROM added);
        RETURN NULL;
      END $$;
      CREATE OR REPLACE FUNCTION search_stats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE search_stats SET passages = passages - (SELECT count(*) FROM removed),
                                tokens = tokens - (SELECT coalesce(sum(length), 0) FROM removed);
        RETURN NULL;
      END $$;
      CREATE TRIGGER search_passages_added AFTER INSERT ON search_passages
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION search_stats_added();
      CREATE TRIGGER search_passages_removed AFTER DELETE ON search_passages
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION search_stats_removed();
      INSERT INTO search_meta (key, value) VALUES ('schema', '${schemaVersion}')
        ON CONFLICT (key) DO UPDATE SET value = excluded.value;
    `);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
