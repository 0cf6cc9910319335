import { closeSync, existsSync, openSync, readSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ToolError } from '@mcpkit/server-kit';
import { once } from '../../loaded-on-first-use.js';
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
import type { SqliteConnectionOptions } from './sqlite-connection.js';
import type { WorkerCallSettings, WorkerCalls, WorkerRequestBody } from './worker-calls.js';

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

/** Milliseconds after opening the engine at which its first worker process starts, unless a call starts it first. */
const firstWorkerDelayMs = 100;
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
  const settings: WorkerCallSettings = {
    file,
    connection,
    timeoutMs,
    workers: options.workers ?? 3,
    workerMemoryMb: options.workerMemoryMb ?? 512,
  };
  // The worker processes, their pool and the calls' deadlines are loaded after the start (ADR 0205): by the first
  // worker's timer, or by a call that comes first, which then waits for the load (a few ms of reading local files,
  // counted in its time limit). Once loaded, a call runs on them without waiting for anything else. A load that
  // fails is forgotten, so that the next call tries again (and fails with an internal error the log explains).
  const workerCallsModule = once(() => import('./worker-calls.js'));
  let calls: WorkerCalls | undefined;
  let closed = false;
  const loadCalls = async (): Promise<WorkerCalls> => {
    const loaded = await workerCallsModule();
    if (!calls) {
      calls = loaded.workerCalls(settings);
      if (closed) calls.close();
    }
    return calls;
  };
  const run = (body: WorkerRequestBody, signal: AbortSignal): Promise<unknown> => {
    if (calls) return calls.run(body, signal);
    const calledAt = performance.now();
    return loadCalls().then((loaded) => loaded.run(body, signal, performance.now() - calledAt));
  };
  // The first worker starts in the background after the server's own start: a process booting Node and
  // better-sqlite3 at the same time competes for the CPU with the answer to tools/list (started at once 1.45-1.52x a
  // bare SDK server, started 100 ms later 1.32-1.36x, at a load of 4 on two cores; bench/database README). A call
  // that comes first starts it, and the pool's start then serves both. A second worker follows, so that a slow call
  // does not make the next one wait. A failed load or start ends the prewarm; the next call tries again.
  const prewarmLater = setTimeout(() => {
    loadCalls().then(
      (loaded) => loaded.prewarm(2),
      () => {},
    );
  }, firstWorkerDelayMs);
  prewarmLater.unref();

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
      closed = true;
      calls?.close();
    },
  };
}
