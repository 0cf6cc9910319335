import { closeSync, existsSync, openSync, readSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolError } from '@mcpkit/server-kit';
import type {
  DatabaseEngine,
  ExecuteResult,
  ExplainResult,
  QueryRequest,
  QueryResult,
  SerializedQueryResult,
  TableDescription,
  TableSummary,
} from '../engine.js';
import { CallStop } from './call-stop.js';
import type { SqliteConnectionOptions } from './sqlite-connection.js';
import { WorkerPool } from './worker-pool.js';
import { WorkerError, WorkerProcess } from './worker-process.js';

/** How the SQLite engine opens its file and bounds its work. */
export interface SqliteEngineOptions {
  file: string;
  /** Open the file for writing (the execute tool); otherwise read-only at the connection level. */
  writable?: boolean;
  /** Create an empty database when the file does not exist. */
  create?: boolean;
  /** Milliseconds a statement may run before its worker is killed. */
  timeoutMs: number;
  /** Characters of one text value before it is shortened (default 2,000). */
  cellChars?: number;
  /** Characters of JSON the rows of one result may take (default 60,000). */
  byteBudget?: number;
  /** Rows counted past the row cap, by SQLite, before the count says "at least" (default 10,000). */
  countLimit?: number;
  /** Worker processes at most, so that a slow query never blocks the next call (default 3). */
  workers?: number;
  /** MiB of memory one worker process may use while it runs a statement (default 512); past it the statement stops. */
  workerMemoryMb?: number;
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

/** Milliseconds after opening the engine at which its first worker process starts, unless a call starts it first. */
const firstWorkerDelayMs = 100;
/**
 * Milliseconds a worker process may take to start and open the file (or the statement time limit, when longer) before
 * it is killed and the calls waiting for it fail: an open stuck on a network file system would otherwise hold the
 * pool's one start, and every call after it, for good.
 */
const minimumOpenLimitMs = 10_000;

/** The first 16 bytes of every SQLite database file (an empty file is an empty database too). */
const sqliteHeader = 'SQLite format 3\0';

/** Why a file cannot be read, as the end of a sentence. */
function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/**
 * What must fail at start and costs no worker: the file is missing (created empty with `create`), unreadable, or
 * does not begin with the SQLite header. Whatever only SQLite can tell (a damaged file) is found by the first worker.
 */
function checkDatabaseFile(file: string, create: boolean): void {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`Cannot open the database ${file}: ${fileProblem(error)}.`);
    }
    if (!create) {
      throw new Error(`The database file ${file} does not exist; pass --create to create an empty database there.`);
    }
    if (!existsSync(dirname(file))) throw new Error(`Cannot create ${file}: the directory does not exist.`);
    try {
      // An empty file is an empty SQLite database (SQLite itself writes nothing to a new file before a write).
      writeFileSync(file, '', { flag: 'wx' });
    } catch (createError) {
      if ((createError as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new Error(`Cannot create ${file}: ${fileProblem(createError)}.`);
      }
    }
    return;
  }
  const header = Buffer.alloc(sqliteHeader.length);
  let length: number;
  try {
    length = readSync(descriptor, header, 0, header.length, 0);
  } catch (error) {
    throw new Error(`Cannot open the database ${file}: ${fileProblem(error)}.`);
  } finally {
    closeSync(descriptor);
  }
  if (length > 0 && header.toString('latin1') !== sqliteHeader) {
    throw new Error(
      `Cannot open the database ${file}: file is not a database (it does not begin with the SQLite header).`,
    );
  }
}

/**
 * Opens a SQLite database behind the engine interface. What is cheap is checked at once and fails with one clear
 * sentence (see checkDatabaseFile); the first worker process opens the file in the background, shortly after, so
 * that the server answers `initialize` and `tools/list` without waiting for a fork and better-sqlite3 (ADR 0200). The
 * first call that needs a worker waits for it within its deadline; a worker that cannot open the file fails that call
 * with one sentence, and the next call tries again.
 */
export async function openSqliteEngine(options: SqliteEngineOptions): Promise<DatabaseEngine> {
  const { file, timeoutMs } = options;
  const writable = options.writable ?? false;
  checkDatabaseFile(file, options.create ?? false);
  const connection: SqliteConnectionOptions = {
    file,
    writable,
    cellChars: options.cellChars ?? 2000,
    byteBudget: options.byteBudget ?? 60_000,
    countLimit: options.countLimit ?? 10_000,
    countTimeMs: timeoutMs / 4,
  };
  const entry = workerEntry();
  // A worker that cannot open the file fails the calls waiting for it with one sentence (a ToolError reaches the
  // model as it is), and the pool starts a new one for the next call, which a repaired file then serves.
  const openLimitMs = Math.max(timeoutMs, minimumOpenLimitMs);
  const start = async (signal: AbortSignal) => {
    const worker = new WorkerProcess(entry, { memoryMb: options.workerMemoryMb ?? 512 });
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
  const pool = new WorkerPool(start, options.workers ?? 3, openLimitMs);
  // The first worker starts in the background after the server's own start: a process booting Node and
  // better-sqlite3 at the same time competes for the CPU with the answer to tools/list (started at once 1.45-1.52x a
  // bare SDK server, started 100 ms later 1.32-1.36x, at a load of 4 on two cores; bench/database README). A call
  // that comes first starts it, and the pool's start then serves both. A second worker follows, so that a slow call
  // does not make the next one wait.
  const prewarmLater = setTimeout(() => pool.prewarm(2), firstWorkerDelayMs);
  prewarmLater.unref();

  /**
   * Runs one request on a worker, killing the worker at the deadline or on cancel. A worker that died under a read
   * (killed from outside, out of memory) is replaced and the read tried once more; a write is never repeated.
   *
   * The call's stop (deadline or cancel) is one small object owned by this call, with one timer (the deadline) and one
   * listener on the caller's signal, both gone when the call ends, so nothing of a finished call stays reachable from
   * a signal or timer that outlives it (AbortSignal.timeout and AbortSignal.any kept ~1.5 KB per call alive under
   * load), and no AbortController or event listener is made per attempt.
   */
  async function run(body: Parameters<WorkerProcess['request']>[0], signal: AbortSignal): Promise<unknown> {
    signal.throwIfAborted();
    const stop = new CallStop();
    // The time limit counts from the call, so waiting for a free worker is part of it.
    const timer = setTimeout(stopAtDeadline, timeoutMs, stop);
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
  async function runOnce(body: Parameters<WorkerProcess['request']>[0], stop: CallStop): Promise<unknown> {
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

  return {
    dialect: 'sqlite',
    writable,
    label: basename(file),
    listTables: async (signal) => (await run({ op: 'list_tables' }, signal)) as TableSummary[],
    describeTable: async (name, signal) =>
      ((await run({ op: 'describe_table', name }, signal)) as TableDescription | null) ?? undefined,
    schemaText: async (signal) => (await run({ op: 'schema' }, signal)) as string,
    query: async (request: QueryRequest, signal) => (await run({ op: 'query', query: request }, signal)) as QueryResult,
    renderQuery: async (request, render, signal) =>
      (await run({ op: 'render_query', query: request, render }, signal)) as SerializedQueryResult,
    explain: async (request, signal) => (await run({ op: 'explain', query: request }, signal)) as ExplainResult,
    execute: async (request, signal) => {
      if (!writable) throw new ToolError('This server is read-only: start it with --allow-write to run writes.');
      return (await run({ op: 'execute', query: request }, signal)) as ExecuteResult;
    },
    close: async () => {
      clearTimeout(prewarmLater);
      pool.close();
    },
  };
}
