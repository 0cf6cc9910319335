import type { QueryRenderLimits, QueryRequest } from '../engine.js';
import type { SqliteConnectionOptions } from './sqlite-connection.js';

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
