import type pg from 'pg';

/**
 * Runs a statement on `client`, cancelling it on the server (pg_cancel_backend from another connection of the
 * pool) when `signal` aborts, so a cancelled call stops using the database's CPU as well as ours.
 */
export async function cancelOnAbort<Result>(
  pool: pg.Pool,
  client: pg.PoolClient,
  signal: AbortSignal | undefined,
  run: () => Promise<Result>,
): Promise<Result> {
  if (!signal) return run();
  signal.throwIfAborted();
  const processId = (client as unknown as { processID: number }).processID;
  const cancel = () => {
    pool.query('SELECT pg_cancel_backend($1)', [processId]).catch(() => {});
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await run();
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
