import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ToolError } from '@mcpkit/server-kit';
import { CallStop } from './call-stop.js';
import type { SqliteConnectionOptions } from './sqlite-connection.js';
import { WorkerPool } from './worker-pool.js';
import { WorkerError, WorkerProcess } from './worker-process.js';

/** A request to a worker, without the id its channel adds. */
export type WorkerRequestBody = Parameters<WorkerProcess['request']>[0];

/** What the SQLite engine's calls run on: its worker processes, their pool, and each call's deadline. */
export interface WorkerCalls {
  /**
   * Runs one request on a worker, killing the worker at the deadline or on cancel. A worker that died under a read
   * (killed from outside, out of memory) is replaced and the read tried once more; a write is never repeated.
   * `waitedMs`: how long the call already waited (for this module to load); its time limit counts from the call.
   */
  run(body: WorkerRequestBody, signal: AbortSignal, waitedMs?: number): Promise<unknown>;
  /** Starts `count` workers in the background (see WorkerPool.prewarm). */
  prewarm(count: number): void;
  /** Kills every worker; calls running or waiting fail with "The database is closed." */
  close(): void;
}

/** How the worker processes open the file and bound their work. */
export interface WorkerCallSettings {
  /** The database file, as the messages name it. */
  file: string;
  /** What each worker opens. */
  connection: SqliteConnectionOptions;
  /** Milliseconds a statement may run before its worker is killed. */
  timeoutMs: number;
  /** Worker processes at most. */
  workers: number;
  /** MiB of memory one worker process may use while it runs a statement. */
  workerMemoryMb: number;
}

/**
 * The compiled worker entry. Tests run the TypeScript sources, which a child process cannot load, so from
 * `src/` the engine uses the built file in `dist/` (the test task builds first).
 */
function workerEntry(): string {
  const here = fileURLToPath(new URL('./sqlite-process.js', import.meta.url));
  if (existsSync(here)) return here;
  return here.replace(/([\\/])src([\\/]engines[\\/]sqlite[\\/])/, '$1dist$2');
}

const stopAtDeadline = (stop: CallStop) => stop.stop('deadline');

function stopped(reason: 'deadline' | 'cancel', timeoutMs: number): ToolError {
  if (reason === 'cancel') return new ToolError('The statement was cancelled before it finished.');
  return new ToolError(
    `The statement was stopped at its time limit of ${timeoutMs.toLocaleString('en-US')} ms. Make it cheaper (a WHERE clause, a LIMIT, an index; explain_query shows the plan) or ask for a server with a longer --timeout-ms.`,
  );
}

/**
 * Milliseconds a worker process may take to start and open the file (or the statement time limit, when longer) before
 * it is killed and the calls waiting for it fail: an open stuck on a network file system would otherwise hold the
 * pool's one start, and every call after it, for good.
 */
const minimumOpenLimitMs = 10_000;

/**
 * The worker processes of one SQLite engine and the way a call runs on them. Loaded by the engine after the server's
 * start (its first worker, or a call that comes first), not before its first tools/list: nothing here is needed to
 * list the tools (ADR 0205).
 */
export function workerCalls(settings: WorkerCallSettings): WorkerCalls {
  const { file, connection, timeoutMs } = settings;
  const entry = workerEntry();
  // A worker that cannot open the file fails the calls waiting for it with one sentence (a ToolError reaches the
  // model as it is), and the pool starts a new one for the next call, which a repaired file then serves.
  const openLimitMs = Math.max(timeoutMs, minimumOpenLimitMs);
  const start = async (signal: AbortSignal) => {
    const worker = new WorkerProcess(entry, { memoryMb: settings.workerMemoryMb });
    const giveUp = () => worker.kill();
    signal.addEventListener('abort', giveUp);
    try {
      await worker.request({ op: 'open', options: connection });
    } catch (error) {
      worker.kill();
      const reason = signal.aborted
        ? `it did not open within ${openLimitMs.toLocaleString('en-US')} ms (a locked or unreachable file?); the next call tries again`
        : error instanceof Error
          ? error.message
          : String(error);
      throw new ToolError(`Cannot open the database ${file}: ${reason}`);
    } finally {
      signal.removeEventListener('abort', giveUp);
    }
    return worker;
  };
  const pool = new WorkerPool(start, settings.workers, openLimitMs);

  /**
   * The call's stop (deadline or cancel) is one small object owned by this call, with one timer (the deadline) and one
   * listener on the caller's signal, both gone when the call ends, so nothing of a finished call stays reachable from
   * a signal or timer that outlives it (AbortSignal.timeout and AbortSignal.any kept ~1.5 KB per call alive under
   * load), and no AbortController or event listener is made per attempt.
   */
  async function run(body: WorkerRequestBody, signal: AbortSignal, waitedMs = 0): Promise<unknown> {
    // Cancelled before it ran (while this module loaded, say): the same sentence as a cancel at any later point.
    if (signal.aborted) throw stopped('cancel', timeoutMs);
    const stop = new CallStop();
    // The time limit counts from the call, so waiting for a free worker (or for this module) is part of it.
    const timer = setTimeout(stopAtDeadline, Math.max(0, timeoutMs - waitedMs), stop);
    const onAbort = () => stop.stop('cancel');
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const attempts = body.op === 'execute' ? 1 : 2;
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await runOnce(body, stop);
        } catch (error) {
          if (stop.reason) throw stopped(stop.reason, timeoutMs);
          const died = error instanceof WorkerError && !error.forModel;
          if (!died) throw error;
          if (attempt >= attempts) {
            throw new ToolError(
              'The SQLite worker process stopped unexpectedly while running the statement; the server replaced it, so the call can be tried again.',
            );
          }
        }
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** One attempt: takes a worker, and kills it when the call stops before the answer comes. */
  async function runOnce(body: WorkerRequestBody, stop: CallStop): Promise<unknown> {
    const worker = await pool.acquire(stop);
    // Stopped while a worker was starting: nothing runs.
    if (stop.reason !== undefined) {
      pool.release(worker);
      throw new WorkerError(`The call stopped (${stop.reason}) before it ran.`, true);
    }
    let killed = false;
    stop.onStop = () => {
      killed = true;
      pool.discard(worker);
    };
    try {
      return await worker.request(body);
    } catch (error) {
      if (!killed && error instanceof WorkerError && error.forModel) throw new ToolError(error.message);
      throw error;
    } finally {
      stop.onStop = undefined;
      if (!killed) pool.release(worker);
    }
  }

  return { run, prewarm: (count) => pool.prewarm(count), close: () => pool.close() };
}
