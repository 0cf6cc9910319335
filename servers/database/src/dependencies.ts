import type { DatabaseEngine } from './engines/engine.js';

/** The caps of the database server; each cut result says how to get more. */
export interface DatabaseLimits {
  /** Rows one query returns at most, and the ceiling of its max_rows argument (500). */
  maxRows: number;
  /** Milliseconds a statement may run before it is stopped (5,000). */
  timeoutMs: number;
  /** Tables of one list_tables page (200). */
  tablePageSize: number;
  /** Characters one query result may take, its text and its structured content together (100,000). */
  resultChars: number;
  /** MiB of memory a SQLite worker process may use while it runs a statement (512); past it the statement stops. */
  workerMemoryMb: number;
}

/** The default caps. */
export const defaultLimits: DatabaseLimits = {
  maxRows: 500,
  timeoutMs: 5000,
  tablePageSize: 200,
  resultChars: 100_000,
  workerMemoryMb: 512,
};

/** What every tool, resource and prompt of the database server is built from. */
export interface DatabaseDependencies {
  engine: DatabaseEngine;
  limits: DatabaseLimits;
}
