import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test cluster's superuser, or '' when PostgreSQL could not be started (outside CI only). */
    postgresUrl: string;
    /** Why the PostgreSQL tests are skipped, when they are. */
    postgresSkipReason: string;
  }
}

/** Whether the PostgreSQL half of the suite runs here, and why not when it does not. */
export const postgresAvailable = inject('postgresUrl') !== '';
export const postgresSkipReason = inject('postgresSkipReason');

/** A database of its own for a test (files run in parallel), with a read-only role; `drop` removes both. */
export interface TestDatabase {
  /** The superuser's URL of the new database: the writer's. */
  url: string;
  /** A role that may only read the index tables (granted after the first write, see `grantReader`). */
  readerUrl: string;
  /** Grants the reader SELECT on the index tables, once a writer has created them. */
  grantReader(): Promise<void>;
  drop(): Promise<void>;
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database and a reader role on the test cluster. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const superuserUrl = inject('postgresUrl');
  const name = `search_${randomBytes(6).toString('hex')}`;
  const reader = `${name}_reader`;
  await admin(superuserUrl, async (client) => {
    await client.query(`CREATE DATABASE ${name}`);
    await client.query(`CREATE ROLE ${reader} LOGIN PASSWORD 'reader'`);
  });
  const url = superuserUrl.replace(/\/[^/]+$/, `/${name}`);
  const parsed = new URL(url);
  parsed.username = reader;
  parsed.password = 'reader';
  return {
    url,
    readerUrl: parsed.href,
    grantReader: () =>
      admin(url, async (client) => {
        await client.query(
          `GRANT SELECT ON search_meta, search_documents, search_passages, search_stats TO ${reader};
           ALTER ROLE ${reader} SET default_transaction_read_only = on`,
        );
      }),
    drop: () =>
      admin(superuserUrl, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.query(`DROP ROLE IF EXISTS ${reader}`);
      }),
  };
}
