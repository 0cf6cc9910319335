import Database from 'better-sqlite3';
import { sqlTokens } from '../../sql-words.js';
import { checkStatement, StatementError, type StatementMode } from '../../statement-safety.js';
import { bindable, toCellsInPlace } from '../cells.js';
import type {
  CellValue,
  ExecuteResult,
  ExplainResult,
  QueryRequest,
  QueryResult,
  StatementParameters,
} from '../engine.js';
import { describeSqliteError } from './sqlite-errors.js';

/** Bytes of the database file SQLite maps into memory for reading (1 GiB; the rest is read with read()). */
const mappedBytes = 1024 * 1024 * 1024;

/** How a connection is opened and how much of a result it hands back. */
export interface SqliteConnectionOptions {
  file: string;
  writable: boolean;
  /** Characters of one text value before it is shortened. */
  cellChars: number;
  /** Characters of JSON the rows of one result may take. */
  byteBudget: number;
  /** Rows counted past the row cap to say how many there are, before saying "at least". */
  countLimit: number;
  /** When reading the first rows took longer than this, a cut result is not counted (the count runs it again). */
  countTimeMs: number;
}

/**
 * One synchronous better-sqlite3 connection with the read-only rules applied: opened read-only unless writes are
 * allowed, `query_only` on for every read, extension loading never enabled. It runs inside a worker process so
 * the server can kill it at a query's deadline.
 */
export class SqliteConnection {
  readonly db: Database.Database;
  private readonly options: SqliteConnectionOptions;
  private readonly queryOnly: Database.Statement;
  private readonly queryWrites: Database.Statement | undefined;
  private readonly lastChange: Database.Statement;

  constructor(options: SqliteConnectionOptions) {
    this.options = options;
    this.db = new Database(options.file, { readonly: !options.writable, fileMustExist: true, timeout: 1000 });
    this.db.pragma('foreign_keys = ON');
    // Reads come straight from the file's pages mapped into memory instead of a read() copy of each: a scan of the
    // bench's 1M rows takes about two thirds of the time. The memory watch counts anonymous memory only, so mapped
    // pages of a big file never look like a runaway value (ADR 0204).
    this.db.pragma(`mmap_size = ${mappedBytes}`);
    this.queryOnly = this.db.prepare('PRAGMA query_only = ON');
    this.queryWrites = options.writable ? this.db.prepare('PRAGMA query_only = OFF') : undefined;
    this.lastChange = this.db.prepare('SELECT changes() AS changes, last_insert_rowid() AS rowid').safeIntegers(true);
    this.queryOnly.run();
  }

  /**
   * Which occurrence of `fragment` SQLite's syntax error is about: the first one at which the statement, cut just
   * after it, fails with the same error (SQLite knows the offset, but better-sqlite3 does not pass it on).
   */
  private locator(sql: string, message: string) {
    return (fragment: string): number | undefined => {
      let offset = sql.indexOf(fragment);
      for (let tries = 0; offset !== -1 && tries < 50; tries += 1) {
        try {
          this.db.prepare(sql.slice(0, offset + fragment.length));
        } catch (error) {
          if (error instanceof Error && error.message === message) return offset;
        }
        offset = sql.indexOf(fragment, offset + 1);
      }
      return undefined;
    };
  }

  private describe(error: unknown, sql: string): string {
    const message = error instanceof Error ? error.message : String(error);
    return describeSqliteError(error, sql, this.locator(sql, message));
  }

  /** Prepares a statement (SQLite parses it and refuses a second one), or throws its error for the model. */
  private compile(sql: string): Database.Statement {
    try {
      return this.db.prepare(sql);
    } catch (error) {
      throw new StatementError(this.describe(error, sql));
    }
  }

  private prepare(sql: string, mode: StatementMode): Database.Statement {
    const statement = this.compile(sql);
    checkStatement(sql, { readonly: statement.readonly, reader: statement.reader }, mode);
    return statement;
  }

  /**
   * How many rows a cut statement produces, counted by SQLite itself (no row reaches JavaScript) and only up to
   * `limit`: undefined when the statement cannot be wrapped (a PRAGMA, EXPLAIN) or when reading the first rows
   * already took a good part of the time limit (the count runs the statement again).
   */
  private countRows(sql: string, params: StatementParameters | undefined, limit: number, spentMs: number) {
    if (spentMs > this.options.countTimeMs) return undefined;
    const tokens = sqlTokens(sql);
    const last = tokens.at(-1);
    const body = last?.value === ';' && last.kind === 'punctuation' ? sql.slice(0, last.offset) : sql;
    try {
      const counter = this.db.prepare(`SELECT count(*) FROM (SELECT 1 FROM (\n${body}\n) LIMIT ${limit})`);
      if (!counter.readonly || !counter.reader) return undefined;
      return Number(counter.pluck().get(...bindable(params)));
    } catch {
      return undefined;
    }
  }

  /**
   * Steps through rows until the row cap or the byte budget; when it cut, counts the rest within a bound. Integers
   * are read as doubles unless `integersExact` (a BigInt per integer cell, then converted back, took a quarter of the
   * time of 500 bench rows); a number at or past 2^53 may have lost digits, so a read statement meeting one is read
   * again with exact integers (ADR 0202). A write's RETURNING rows are read exact at once: a write never runs twice.
   */
  private collect(
    statement: Database.Statement,
    params: StatementParameters | undefined,
    maxRows: number,
    sql: string | undefined,
    integersExact: boolean,
  ): QueryResult {
    const started = performance.now();
    statement.safeIntegers(integersExact).raw(true);
    const columns = statement.columns().map((column) => column.name);
    const rows: CellValue[][] = [];
    let bytes = 0;
    let shortenedCells = 0;
    const onShortened = () => {
      shortenedCells += 1;
    };
    const { cellChars } = this.options;
    let truncated: QueryResult['truncated'];
    let lossy = false;
    const iterator = statement.iterate(...bindable(params)) as IterableIterator<unknown[]>;
    try {
      for (const raw of iterator) {
        if (rows.length >= maxRows) {
          truncated = 'row_cap';
          break;
        }
        const length = toCellsInPlace(raw, cellChars, onShortened, integersExact);
        if (length < 0) {
          lossy = true;
          break;
        }
        bytes += length;
        if (bytes > this.options.byteBudget && rows.length > 0) {
          truncated = 'byte_budget';
          break;
        }
        rows.push(raw as CellValue[]);
      }
    } finally {
      iterator.return?.();
    }
    if (lossy) return this.collect(statement, params, maxRows, sql, true);
    const result: QueryResult = { columns, rows, shortenedCells, elapsedMs: 0 };
    if (truncated) {
      result.truncated = truncated;
      const limit = maxRows + this.options.countLimit;
      const counted =
        sql === undefined ? undefined : this.countRows(sql, params, limit + 1, performance.now() - started);
      if (counted === undefined) result.totalRowsAtLeast = rows.length + 1;
      else if (counted > limit) result.totalRowsAtLeast = limit;
      else result.totalRows = counted;
    } else {
      result.totalRows = rows.length;
    }
    result.elapsedMs = performance.now() - started;
    return result;
  }

  /** Runs one read statement under the read rules. */
  query(request: QueryRequest): QueryResult {
    this.queryOnly.run();
    const statement = this.prepare(request.sql, 'read');
    try {
      return this.collect(statement, request.params, request.maxRows, request.sql, false);
    } catch (error) {
      if (error instanceof StatementError) throw error;
      throw new StatementError(this.describe(error, request.sql));
    }
  }

  /** The query plan as an indented tree, from EXPLAIN QUERY PLAN (the statement is prepared, never run). */
  explain(request: Omit<QueryRequest, 'maxRows'>): ExplainResult {
    this.queryOnly.run();
    // The statement is checked on its own: prefixing EXPLAIN QUERY PLAN keeps it one statement.
    const statement = this.compile(request.sql);
    if (!statement.readonly && !this.options.writable) {
      throw new StatementError(
        'This statement would change the database; this server is read-only, so it is not explained either.',
      );
    }
    const facts = { readonly: statement.readonly, reader: statement.reader };
    checkStatement(request.sql, facts, statement.readonly ? 'read' : 'write');
    let rows: { id: number; parent: number; detail: string }[];
    try {
      rows = this.db.prepare(`EXPLAIN QUERY PLAN ${request.sql}`).all(...bindable(request.params)) as typeof rows;
    } catch (error) {
      throw new StatementError(this.describe(error, request.sql));
    }
    const depth = new Map<number, number>([[0, -1]]);
    const plan = rows.map((row) => {
      const level = (depth.get(row.parent) ?? -1) + 1;
      depth.set(row.id, level);
      return `${'  '.repeat(level)}${row.detail}`;
    });
    return { plan };
  }

  /** Runs one write statement (only on a writable connection); RETURNING rows come back capped like a query. */
  execute(request: QueryRequest): ExecuteResult {
    if (!this.queryWrites)
      throw new StatementError('This server is read-only: start it with --allow-write to run writes.');
    const started = performance.now();
    const statement = this.prepare(request.sql, 'write');
    this.queryWrites.run();
    try {
      let returned: QueryResult | undefined;
      if (statement.reader) returned = this.collect(statement, request.params, request.maxRows, undefined, true);
      else statement.run(...bindable(request.params));
      const { changes, rowid } = this.lastChange.get() as { changes: bigint; rowid: bigint };
      const lastInsertRowid = rowid <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(rowid) : rowid.toString();
      const result: ExecuteResult = {
        changes: Number(changes),
        lastInsertRowid,
        elapsedMs: performance.now() - started,
      };
      if (returned) result.returned = returned;
      return result;
    } catch (error) {
      throw new StatementError(this.describe(error, request.sql));
    } finally {
      this.queryOnly.run();
    }
  }

  close(): void {
    this.db.close();
  }
}
