import type { TestProject } from 'vitest/node';
// @ts-expect-error: a plain ES module script shared with the database server's tests; it has no type declarations.
import { startPostgresCluster } from '../../database/scripts/postgres-cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test cluster's superuser, or '' when PostgreSQL could not be started (outside CI only). */
    postgresUrl: string;
    /** Why the PostgreSQL tests are skipped, when they are. */
    postgresSkipReason: string;
  }
}

/**
 * Starts one PostgreSQL cluster on a loopback port for the whole test run (the database server's script: Debian's
 * packages, installed when missing) and stops it afterwards. With CI=true a cluster that cannot start fails the
 * run; elsewhere the PostgreSQL half of the suite is skipped with the reason.
 */
export default async function setup(project: TestProject) {
  let cluster: { url: string; stop(): void } | undefined;
  try {
    cluster = await startPostgresCluster();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.CI === 'true') throw new Error(`PostgreSQL tests must run in CI: ${reason}`);
    project.provide('postgresUrl', '');
    project.provide('postgresSkipReason', reason);
    return;
  }
  project.provide('postgresUrl', cluster?.url ?? '');
  project.provide('postgresSkipReason', '');
  return () => cluster?.stop();
}
