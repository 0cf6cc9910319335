import type pg from 'pg';
import { ensureSchema, indexTables } from './postgres-schema.js';

/** The schema a full rebuild writes into, beside the index that readers keep using until the swap. */
export const rebuildSchema = 'search_rebuild';

/** How often the swap tries to take the tables from the readers before the rebuild fails. */
const swapAttempts = 200;

/** The functions the passage triggers call; they move with the tables. */
const triggerFunctions = ['search_stats_added()', 'search_stats_removed()'];

/**
 * Starts a full rebuild on `connection` (which holds the write lock): empty tables of the current layout in a
 * schema of their own, made the session's only schema, so the indexer's statements fill them while readers keep
 * reading the index in `schema`, the one returned (the session's current schema before).
 */
export async function startRebuild(connection: pg.ClientBase): Promise<string> {
  const { rows } = await connection.query<{ schema: string | null }>('SELECT current_schema() AS schema');
  const schema = rows[0]?.schema ?? 'public';
  const next = connection.escapeIdentifier(rebuildSchema);
  await connection.query(`DROP SCHEMA IF EXISTS ${next} CASCADE; CREATE SCHEMA ${next}; SET search_path TO ${next}`);
  await ensureSchema(connection);
  return schema;
}

/**
 * Swaps the rebuilt tables in for those of `schema` in one transaction, with the SELECT grants of the old ones
 * (the readers' role keeps reading): a reader's statement sees either the old index or the new one, and waits only
 * for the swap's few catalogue changes.
 */
export async function finishRebuild(connection: pg.ClientBase, schema: string): Promise<void> {
  const target = connection.escapeIdentifier(schema);
  const next = connection.escapeIdentifier(rebuildSchema);
  await connection.query('ANALYZE search_documents, search_passages');
  // Grantees of the old tables (0 is PUBLIC), read before they are dropped.
  const { rows: grants } = await connection.query<{ grantee: string }>(
    `SELECT DISTINCT CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(acl.grantee::regrole::text) END AS grantee
     FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) AS acl
     WHERE c.oid = to_regclass($1) AND acl.privilege_type = 'SELECT' AND acl.grantee <> c.relowner`,
    [`${target}.search_documents`],
  );
  for (let attempt = 1; ; attempt++) {
    await connection.query('BEGIN');
    try {
      // A reader locks the tables one by one as it plans its statement: waiting for all of them while a reader
      // holds one and waits behind the swap would deadlock, and PostgreSQL would cancel one of the two after a
      // second. Giving up after 100 ms (and trying again) keeps the readers' statements out of it.
      await connection.query(`SET LOCAL lock_timeout = '100ms'`);
      await connection.query(`
        DROP TABLE IF EXISTS ${indexTables.map((table) => `${target}.${table}`).join(', ')} CASCADE;
        DROP FUNCTION IF EXISTS ${triggerFunctions.map((name) => `${target}.${name}`).join(', ')};
        ${indexTables.map((table) => `ALTER TABLE ${next}.${table} SET SCHEMA ${target};`).join('\n')}
        ${triggerFunctions.map((name) => `ALTER FUNCTION ${next}.${name} SET SCHEMA ${target};`).join('\n')}
        DROP SCHEMA ${next};
        RESET search_path;
      `);
      if (grants.length > 0) {
        const moved = indexTables.map((table) => `${target}.${table}`).join(', ');
        await connection.query(`GRANT SELECT ON ${moved} TO ${grants.map((row) => row.grantee).join(', ')}`);
      }
      await connection.query('COMMIT');
      return;
    } catch (error) {
      await connection.query('ROLLBACK').catch(() => {});
      const code = (error as { code?: string }).code;
      if ((code !== '55P03' && code !== '40P01') || attempt >= swapAttempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
    }
  }
}

/** Drops a rebuild that was cancelled or failed; the index readers use stays as it was. */
export async function abandonRebuild(connection: pg.ClientBase): Promise<void> {
  await connection.query(
    `DROP SCHEMA IF EXISTS ${connection.escapeIdentifier(rebuildSchema)} CASCADE; RESET search_path`,
  );
}
