import { ToolError } from '@mcpkit/server-kit';
import pg from 'pg';
import { boundedSentence } from '../../error-text.js';
import { sqlTokens } from '../../sql-words.js';
import { checkPostgresStatement, StatementError } from '../../statement-safety.js';
import type { DatabaseEngine, ExplainResult, QueryRequest, QueryResult } from '../engine.js';
import { createStatement, describeTable, listTables } from './postgres-catalog.js';
import { describeConnectionError, describePostgresError, describeTarget, redact } from './postgres-errors.js';
import { capRows, planLines, positional, statementBody, wrappable } from './postgres-statements.js';

/** How the PostgreSQL engine connects and bounds its work. */
export interface PostgresEngineOptions {
  /** `postgres://user:password@host:port/database`; the password is never shown. */
  url: string;
  /** Offer writes (the execute tool); otherwise every statement runs in a READ ONLY transaction. */
  writable?: boolean;
  /** Milliseconds a statement may run (statement_timeout, then a cancel from the client). */
  timeoutMs: number;
  /** Characters of one text value before it is shortened (default 2,000). */
  cellChars?: number;
  /** Characters of JSON the rows of one result may take (default 60,000). */
  byteBudget?: number;
  /** Rows counted past the row cap before the count says "at least" (default 10,000). */
  countLimit?: number;
  /** Connections of the pool (default 4). */
  poolSize?: number;
}

/** Connects to PostgreSQL behind the engine interface; fails with one clear sentence when it cannot. */
export async function openPostgresEngine(options: PostgresEngineOptions): Promise<DatabaseEngine> {
  const target = describeTarget(options.url);
  const { timeoutMs } = options;
  const writable = options.writable ?? false;
  const cellChars = options.cellChars ?? 2000;
  const byteBudget = options.byteBudget ?? 60_000;
  const countLimit = options.countLimit ?? 10_000;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 4,
    connectionTimeoutMillis: Math.max(timeoutMs, 5000),
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
    // bigint (count(*), bigserial ids) as a number when it is exact, else as a string; numeric stays a string.
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === pg.types.builtins.INT8 && format !== 'binary'
          ? (value: string) => (Number.isSafeInteger(Number(value)) ? Number(value) : value)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection that breaks (the server restarted) is dropped by the pool; the next call opens a new one.
  pool.on('error', () => {});
  const connectionError = (error: unknown) => describeConnectionError(error, target);

  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(
      connectionError(error) ??
        `Cannot connect to PostgreSQL at ${target.host}: ${redact(String(error), target.password)}`,
    );
  }

  /** Cancels the statement a pooled connection is running, from a separate connection. */
  async function cancel(processId: number): Promise<void> {
    const canceller = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: 5000 });
    canceller.on('error', () => {}); // a failure here only means the statement_timeout does the stopping
    try {
      await canceller.connect();
      await canceller.query('SELECT pg_cancel_backend($1)', [processId]);
    } catch {
      // The statement_timeout set on the transaction stops it anyway.
    } finally {
      await canceller.end().catch(() => {});
    }
  }

  /**
   * Runs `work` in its own transaction on a pooled connection: READ ONLY for reads, with statement_timeout and
   * idle_in_transaction_session_timeout, rolled back after a read. A client cancel or a missed deadline cancels the
   * statement; a connection in doubt is destroyed instead of going back to the pool.
   */
  async function transaction<T>(
    readOnly: boolean,
    signal: AbortSignal,
    work: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    signal.throwIfAborted();
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw new ToolError(
        connectionError(error) ?? `Cannot get a connection to PostgreSQL: ${redact(String(error), target.password)}`,
      );
    }
    const processId = (client as unknown as { processID: number }).processID;
    // A connection that breaks while checked out emits 'error' on the client; without a listener it would crash the
    // server. The query in flight fails on its own; the connection is then destroyed instead of reused.
    let healthy = true;
    const onClientError = () => {
      healthy = false;
    };
    client.on('error', onClientError);
    let reason: 'deadline' | 'cancel' | undefined;
    const stop = (why: 'deadline' | 'cancel') => {
      if (reason) return;
      reason = why;
      void cancel(processId);
    };
    // statement_timeout stops the statement on time; this timer is the fallback when the server does not.
    const timer = setTimeout(() => stop('deadline'), timeoutMs + 500);
    const onAbort = () => stop('cancel');
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await client.query(readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
      await client.query(`SET LOCAL statement_timeout = ${Math.ceil(timeoutMs)}`);
      await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${Math.ceil(timeoutMs * 2)}`);
      const value = await work(client);
      await client.query(readOnly ? 'ROLLBACK' : 'COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        healthy = false;
      });
      if (ToolError.isInstance(error)) throw error;
      if (error instanceof StatementError) throw new ToolError(boundedSentence(error.message));
      const code = (error as { code?: string }).code;
      if (code === '57014' || reason) {
        if (reason === 'cancel' || signal.aborted)
          throw new ToolError('The statement was cancelled before it finished.');
        throw new ToolError(
          `The statement was stopped at its time limit of ${timeoutMs.toLocaleString('en-US')} ms. Make it cheaper (a WHERE clause, a LIMIT, an index; explain_query shows the plan) or ask for a server with a longer --timeout-ms.`,
        );
      }
      const connection = connectionError(error);
      if (connection) {
        healthy = false;
        throw new ToolError(connection);
      }
      throw new ToolError(describePostgresError(error, (error as { sql?: string }).sql ?? '', target.password));
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      client.off('error', onClientError);
      client.release(healthy ? undefined : true);
    }
  }

  /** Runs one statement over the extended protocol (always prepared, so exactly one statement runs). */
  async function prepared(client: pg.PoolClient, text: string, values: unknown[], sql: string) {
    try {
      return await client.query({ text, values, rowMode: 'array', queryMode: 'extended' } as pg.QueryConfig);
    } catch (error) {
      Object.assign(error as object, { sql: text === sql ? sql : undefined });
      if ((error as { code?: string }).code && text !== sql && (error as { position?: string }).position) {
        // The position counts in the wrapped text: shift it back into the statement as the model wrote it.
        const shift = text.indexOf(statementBody(sql));
        const position = Number((error as { position: string }).position) - shift;
        Object.assign(error as object, { sql, position: position > 0 ? String(position) : undefined });
      }
      throw error;
    }
  }

  async function readRows(
    client: pg.PoolClient,
    sql: string,
    values: unknown[],
    maxRows: number,
  ): Promise<QueryResult> {
    const started = performance.now();
    const first = sqlTokens(sql, { dollarQuotes: true })[0]?.value ?? '';
    const body = statementBody(sql);
    const wrap = wrappable.has(first);
    const text = wrap ? `SELECT * FROM (\n${body}\n) AS mcpkit_rows LIMIT ${maxRows + 1}` : sql;
    const result = await prepared(client, text, values, sql);
    const columns = result.fields.map((field) => field.name);
    const { kept, shortenedCells, truncated } = capRows(result.rows as unknown[][], maxRows, cellChars, byteBudget);
    const output: QueryResult = { columns, rows: kept, shortenedCells, elapsedMs: 0 };
    if (truncated) {
      output.truncated = truncated;
      const limit = maxRows + countLimit;
      if (wrap && performance.now() - started < timeoutMs / 4) {
        const counted = await prepared(
          client,
          `SELECT count(*) FROM (SELECT 1 FROM (\n${body}\n) AS mcpkit_rows LIMIT ${limit + 1}) AS mcpkit_count`,
          values,
          sql,
        );
        const total = Number((counted.rows as unknown[][])[0]?.[0]);
        if (total > limit) output.totalRowsAtLeast = limit;
        else output.totalRows = total;
      } else {
        output.totalRowsAtLeast = wrap ? kept.length + 1 : result.rows.length;
        if (!wrap) output.totalRows = result.rows.length;
      }
    } else {
      output.totalRows = kept.length;
    }
    output.elapsedMs = performance.now() - started;
    return output;
  }

  const catalog = (signal: AbortSignal) => ({
    run: <T>(work: (run: (text: string, values?: unknown[]) => Promise<pg.QueryResult>) => Promise<T>) =>
      transaction(true, signal, (client) => work((text, values) => client.query(text, values))),
  });
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

  return {
    dialect: 'postgres',
    writable,
    label: target.label,
    listTables: (signal) => catalog(signal).run((run) => listTables(run, quote)),
    describeTable: (name, signal) => catalog(signal).run((run) => describeTable(run, name)),
    schemaText: (signal) =>
      catalog(signal).run(async (run) => {
        const tables = (await listTables(run, quote)).slice(0, 200);
        const statements: string[] = [];
        for (const table of tables) {
          const description = await describeTable(run, `${table.schema}.${table.name}`);
          if (description) statements.push(createStatement(description));
        }
        return statements.join('\n\n');
      }),
    query: async (request: QueryRequest, signal) => {
      const values = positional(request.params);
      checkRules(request.sql, 'read');
      return transaction(true, signal, (client) => readRows(client, request.sql, values, request.maxRows));
    },
    explain: async (request, signal): Promise<ExplainResult> => {
      const values = positional(request.params);
      checkRules(request.sql, writable ? 'write' : 'read');
      const first = sqlTokens(request.sql, { dollarQuotes: true })[0]?.value;
      if (first === 'EXPLAIN') throw new ToolError('Pass the statement itself; explain_query adds EXPLAIN.');
      // Never ANALYZE: the plan comes from the planner, the statement is not run. READ ONLY all the same.
      return transaction(true, signal, async (client) => {
        const result = await prepared(
          client,
          `EXPLAIN (FORMAT JSON) ${statementBody(request.sql)}`,
          values,
          request.sql,
        );
        const document = (result.rows as unknown[][])[0]?.[0] as { Plan: Record<string, unknown> }[];
        return { plan: planLines(document[0]?.Plan ?? {}) };
      });
    },
    execute: async (request, signal) => {
      if (!writable) throw new ToolError('This server is read-only: start it with --allow-write to run writes.');
      const values = positional(request.params);
      checkRules(request.sql, 'write');
      return transaction(false, signal, async (client) => {
        const started = performance.now();
        const result = await prepared(client, request.sql, values, request.sql);
        const output = { changes: result.rowCount ?? 0, lastInsertRowid: null, elapsedMs: 0 } as Awaited<
          ReturnType<DatabaseEngine['execute']>
        >;
        if (result.fields.length > 0) {
          const { kept, shortenedCells, truncated } = capRows(
            result.rows as unknown[][],
            request.maxRows,
            cellChars,
            byteBudget,
          );
          output.returned = {
            columns: result.fields.map((field) => field.name),
            rows: kept,
            shortenedCells,
            elapsedMs: 0,
            totalRows: result.rows.length,
            ...(truncated ? { truncated } : {}),
          };
        }
        output.elapsedMs = performance.now() - started;
        return output;
      });
    },
    close: () => pool.end(),
  };
}

/** The statement rules; a refusal quotes the statement's words by their heads, and is held to a short sentence here too. */
function checkRules(sql: string, mode: 'read' | 'write'): void {
  try {
    checkPostgresStatement(sql, mode);
  } catch (error) {
    if (error instanceof StatementError) throw new ToolError(boundedSentence(error.message));
    throw error;
  }
}
