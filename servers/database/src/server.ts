import { createServer, type KitServer, type LogLevel } from '@mcpkit/server-kit';
import { type DatabaseDependencies, type DatabaseLimits, defaultLimits } from './dependencies.js';
import type { DatabaseEngine } from './engines/engine.js';
import { openSqliteEngine } from './engines/sqlite/sqlite-engine.js';

/** Whether a server argument names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

import { exploreDatabasePrompt, writeQueryPrompt } from './prompts/database-prompts.js';
import { schemaResource, tableResources } from './resources/schema-resources.js';
import { describeTable } from './tools/describe-table.js';
import { execute } from './tools/execute.js';
import { explainQuery } from './tools/explain-query.js';
import { listTables } from './tools/list-tables.js';
import { query } from './tools/query.js';

/** How a database server is set up. */
export interface DatabaseServerOptions {
  /** The SQLite file, or a `postgres://` URL, to serve; ignored when `engine` is given. */
  file?: string;
  /** An engine opened by the caller (the server closes it when it closes). */
  engine?: DatabaseEngine;
  /** Offer the execute tool and open the database for writing (default: read-only). */
  allowWrite?: boolean;
  /**
   * The OAuth scope a token needs to call execute when the server runs as a protected resource over HTTP (default
   * `database:write`); reads need only what every request needs.
   */
  writeScope?: string;
  /** Create an empty SQLite database when the file does not exist. */
  create?: boolean;
  /** Caps of results and statements; each cut result says how to get more. */
  limits?: Partial<DatabaseLimits>;
  /** The lowest level logged to stderr. */
  logLevel?: LogLevel;
  /** The server's version, sent at initialization. */
  version?: string;
}

/** Builds the database server: opens the engine and wires the tools, schema resources and prompts. */
export async function createDatabaseServer(options: DatabaseServerOptions): Promise<KitServer> {
  const limits: DatabaseLimits = { ...defaultLimits, ...options.limits };
  let engine = options.engine;
  if (!engine) {
    if (!options.file) throw new Error('createDatabaseServer needs a file, a postgres:// URL, or an engine.');
    // Only the engine in use is loaded: pg is not needed to serve a SQLite file, nor better-sqlite3 for PostgreSQL.
    // The SQLite engine's front (the file check, the calls' facade: no driver, no worker) comes with the start, which
    // then reads no more files of its own before it answers; its workers are loaded after (ADR 0205).
    engine = isPostgresUrl(options.file)
      ? await (await import('./engines/postgres/postgres-engine.js')).openPostgresEngine({
          url: options.file,
          writable: options.allowWrite ?? false,
          timeoutMs: limits.timeoutMs,
          // The rows appear twice in a result (text and structured content): each copy gets half the budget.
          byteBudget: Math.floor(limits.resultChars / 2),
        })
      : await openSqliteEngine({
          file: options.file,
          writable: options.allowWrite ?? false,
          create: options.create ?? false,
          timeoutMs: limits.timeoutMs,
          byteBudget: Math.floor(limits.resultChars / 2),
          workerMemoryMb: limits.workerMemoryMb,
        });
  }
  const dependencies: DatabaseDependencies = { engine, limits };
  const reading = [
    listTables(dependencies),
    describeTable(dependencies),
    query(dependencies),
    explainQuery(dependencies),
  ];
  const writable = engine.writable;
  return createServer({
    name: 'mcpkit-database',
    version: options.version ?? '0.1.0',
    title: engine.dialect === 'sqlite' ? 'SQLite Database' : 'PostgreSQL Database',
    instructions:
      `The ${engine.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database ${engine.label}. Learn the schema with list_tables and ` +
      'describe_table, read with query (one statement, values in params, capped rows), check plans with explain_query' +
      (writable ? ', change data with execute.' : '. This server is read-only.'),
    tools: writable ? [...reading, execute(dependencies, options.writeScope ?? 'database:write')] : reading,
    resources: [schemaResource(dependencies), tableResources(dependencies)],
    prompts: [exploreDatabasePrompt(dependencies), writeQueryPrompt(dependencies)],
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    onClose: () => engine.close(),
  });
}
