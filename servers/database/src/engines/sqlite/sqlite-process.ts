// The entry point of a SQLite worker process. better-sqlite3 runs a query synchronously inside native code, where
// neither a worker thread's terminate() nor any JavaScript timer can reach it; a process can always be killed, so
// each query runs here and the server kills this process at the query's deadline (see ADR 0200).

import { type Stats, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Worker } from 'node:worker_threads';
import { boundedSentence, quoted } from '../../error-text.js';
import { serializeQueryResult } from '../../query-result.js';
import { StatementError } from '../../statement-safety.js';
import { describeTable, isLockError, listTables, schemaText } from './sqlite-catalog.js';
import { SqliteConnection, type SqliteConnectionOptions } from './sqlite-connection.js';
import { describeSqliteError } from './sqlite-errors.js';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';
import { answerRequests } from './worker-requests.js';

let connection: SqliteConnection | undefined;
let settings: SqliteConnectionOptions | undefined;
/** Which file the connection opened (device and inode), to see the path name another one later. */
let opened: Stats | undefined;

/**
 * The connection to the file at the configured path now. A file replaced there (a backup restored by renaming a copy
 * over it, a tool that writes a new file) is opened again: the connection kept reading, and with --allow-write writing,
 * the old file, unlinked, while a worker started later read the new one, so calls answered from two files. A file gone
 * from the path is said to be gone instead of served from the unlinked copy.
 */
function currentConnection(wanted: SqliteConnectionOptions): SqliteConnection {
  const now = statSync(wanted.file, { throwIfNoEntry: false });
  if (now === undefined) {
    throw new StatementError(
      `The database file ${basename(wanted.file)} is no longer there (deleted or moved since the server opened it): put it back, or start the server on its new path.`,
    );
  }
  if (connection !== undefined && opened !== undefined && now.ino === opened.ino && now.dev === opened.dev) {
    return connection;
  }
  connection?.close();
  connection = undefined;
  try {
    connection = new SqliteConnection(wanted);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StatementError(
      `The database file ${basename(wanted.file)} was replaced by one SQLite cannot open (${quoted(reason)}).`,
    );
  }
  opened = now;
  return connection;
}

function handle(request: WorkerRequest): unknown {
  if (request.op === 'open') {
    const wanted = request.options as SqliteConnectionOptions;
    // The file's identity before the open: taken after it, a file replaced in between would be recorded as the one
    // opened, and the connection would stay on the old file for good.
    const identity = statSync(wanted.file);
    connection = new SqliteConnection(wanted);
    settings = wanted;
    opened = identity;
    return true;
  }
  if (!settings) throw new Error('The worker has no open connection.');
  const active = currentConnection(settings);
  switch (request.op) {
    case 'query':
      return active.query(request.query);
    case 'render_query':
      // The finished tool result, so that the server passes two strings on instead of copying rows.
      return serializeQueryResult(active.query(request.query), {
        ...request.render,
        requested: request.query.maxRows,
      });
    case 'explain':
      return active.explain(request.query);
    case 'execute':
      return active.execute(request.query);
    case 'list_tables':
      return catalogRead(active, listTables);
    case 'describe_table':
      return catalogRead(active, (db) => describeTable(db, request.name) ?? null);
    case 'schema':
      return catalogRead(active, schemaText);
  }
}

/**
 * A catalog read (the list, a description, the schema) whose failure is a sentence for the model: a lock says so, and
 * anything else (a damaged file, a schema SQLite cannot read) gives SQLite's reason. Unmarked, the server took it for
 * the worker failing: it ran the read again, then answered that the worker had stopped unexpectedly.
 */
function catalogRead<Value>(open: SqliteConnection, read: (db: SqliteConnection['db']) => Value): Value {
  try {
    return read(open.db);
  } catch (error) {
    if (error instanceof StatementError) throw error;
    const code = (error as { code?: unknown }).code;
    if (isLockError(error)) throw new StatementError(describeSqliteError(error, ''));
    const message = error instanceof Error ? error.message : String(error);
    throw new StatementError(
      `SQLite could not read the database's catalog: ${quoted(message)}${typeof code === 'string' ? ` (${code})` : ''}.`,
    );
  }
}

/** One request's answer: its value, or its error as a sentence (and whether that sentence is for the model). */
function answer(message: unknown): WorkerReply {
  const request = message as WorkerRequest;
  try {
    return { id: request.id, ok: true, value: handle(request) };
  } catch (error) {
    // Held to a sentence's length here, so that a huge message never crosses the channel: an error result is not cut
    // by the result budget (error-text.ts).
    const text = boundedSentence(error instanceof Error ? error.message : String(error));
    return { id: request.id, ok: false, message: text, forModel: error instanceof StatementError };
  }
}

/**
 * A statement runs in native code on this thread, where neither the closed channel nor the server's deadline reaches
 * it once the server is gone (killed by SIGKILL, crashed): a runaway statement would spin on unbounded. A small
 * thread of its own ends this process within half a second of its parent changing.
 */
function watchParent(): void {
  const parent = process.ppid;
  const source = `setInterval(() => { if (process.ppid !== ${parent}) process.kill(process.pid, 'SIGKILL'); }, 500);`;
  new Worker(source, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: 4, maxYoungGenerationSizeMb: 1, stackSizeMb: 1 },
  }).unref();
}

// Requests are read with blocking reads until the server closes the channel, which it does when it goes away (even
// by SIGKILL; a worker busy with a statement is ended by watchParent); without it this process has nothing to do.
watchParent();
answerRequests(answer);
connection?.close();
process.exit(0);
