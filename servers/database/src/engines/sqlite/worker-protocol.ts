import type { QueryRenderLimits, QueryRequest } from '../engine.js';
import type { SqliteConnectionOptions } from './sqlite-connection.js';

/*
 * The channel between the server and a SQLite worker process is a socket, the worker's fourth stdio entry (file
 * descriptor 3), not Node's IPC channel. Each message is a 4-byte big-endian length and then the value in V8's
 * serialization: what Node's `advanced` IPC sends, so values arrive as they did over IPC (Infinity, -0, undefined),
 * without the IPC machinery on either side. The worker reads it with blocking reads, so the kernel wakes it straight
 * into its next request, with no event loop, stream or `message` event in between (ADR 0200). The server's end is
 * worker-channel.ts, the worker's end worker-requests.ts; they are two modules, not one, because the build would put a
 * module shared by the worker and the server's engine in a file of its own that the server loads at start.
 */

/** A request from the server to a SQLite worker process. */
export type WorkerRequest = { id: number } & (
  | { op: 'open'; options: SqliteConnectionOptions }
  | { op: 'query' | 'execute'; query: QueryRequest }
  | { op: 'render_query'; query: QueryRequest; render: QueryRenderLimits }
  | { op: 'explain'; query: Omit<QueryRequest, 'maxRows'> }
  | { op: 'list_tables' | 'schema' }
  | { op: 'describe_table'; name: string }
);

/** A worker's answer; `forModel` marks a message written for the model (a refused or failing statement). */
export type WorkerReply = { id: number } & (
  | { ok: true; value: unknown }
  | { ok: false; message: string; forModel: boolean }
);
