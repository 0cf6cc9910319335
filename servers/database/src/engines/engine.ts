/** A value of one result cell, made safe for JSON: big integers beyond 2^53 become strings, BLOBs a summary. */
export type CellValue = null | number | string | boolean | BlobSummary;

/** What a BLOB turns into in a result: its size and its first bytes in hex, never its whole contents. */
export interface BlobSummary {
  blob: { bytes: number; head: string };
}

/** A table or view as listed by list_tables. */
export interface TableSummary {
  /** The schema (PostgreSQL) or attached database name (`main` for SQLite). */
  schema: string;
  name: string;
  type: 'table' | 'view';
  /** Rows counted or estimated by the engine; null for views, where counting would run the view. */
  rows: number | null;
  /** True when `rows` is an estimate (statistics, or a count cut off at its cap). */
  estimated: boolean;
}

/** One column of a table. */
export interface ColumnDescription {
  name: string;
  type: string;
  nullable: boolean;
  default: string | null;
  /** Position in the primary key, counted from 1; 0 when the column is not part of it. */
  primaryKey: number;
}

/** A foreign key from columns of this table to another table. */
export interface ForeignKeyDescription {
  columns: string[];
  references: { table: string; columns: string[] };
  onUpdate: string;
  onDelete: string;
}

/** An index of a table. */
export interface IndexDescription {
  name: string;
  columns: string[];
  unique: boolean;
  /** How the index came to be: `c` CREATE INDEX, `u` UNIQUE constraint, `pk` PRIMARY KEY. */
  origin: string;
}

/** Everything describe_table reports about one table or view. */
export interface TableDescription {
  schema: string;
  name: string;
  type: 'table' | 'view';
  columns: ColumnDescription[];
  foreignKeys: ForeignKeyDescription[];
  indexes: IndexDescription[];
  /** The statement that created it, when the engine keeps it. */
  definition: string | null;
}

/** Parameters bound to a statement: positional (`?`, `$1`) as an array, named (`:name`, `@name`) as an object. */
export type StatementParameters = unknown[] | Record<string, unknown>;

/** A read through the query tool. */
export interface QueryRequest {
  sql: string;
  params?: StatementParameters | undefined;
  /** Rows returned at most; the result says when there were more. */
  maxRows: number;
}

/** Why a result holds fewer rows than the statement produced. */
export type Truncation = 'row_cap' | 'byte_budget';

/** The rows of a read, capped. */
export interface QueryResult {
  columns: string[];
  rows: CellValue[][];
  /** Set when rows were left out. */
  truncated?: Truncation;
  /** How many rows the statement produced, when it is known (always known when not truncated). */
  totalRows?: number;
  /** When the count stopped early: the statement produced at least this many rows. */
  totalRowsAtLeast?: number;
  /** How many text values were shortened to the cell limit. */
  shortenedCells: number;
  /** Trailing columns left out because not even one row fitted the size budget with them. */
  omittedColumns?: number;
  elapsedMs: number;
}

/** What rendering a query result needs besides the rows asked for: the result's character budget and the row cap. */
export interface QueryRenderLimits {
  budget: number;
  maxRows: number;
}

/** A query tool result as text and its structured content serialized as JSON. */
export interface SerializedQueryResult {
  text: string;
  structuredJson: string;
}

/** The plan of a statement, as lines of text (an indented tree). */
export interface ExplainResult {
  plan: string[];
}

/** The outcome of a write. */
export interface ExecuteResult {
  changes: number;
  lastInsertRowid: number | string | null;
  /** Rows a RETURNING clause produced, capped like a query. */
  returned?: QueryResult;
  elapsedMs: number;
}

/** A database behind the tools: SQLite now, PostgreSQL behind the same interface. */
export interface DatabaseEngine {
  readonly dialect: 'sqlite' | 'postgres';
  /** Whether the server was started with writes allowed. */
  readonly writable: boolean;
  /** A name for logs and messages that reveals no secret (a file name, or a URL without its password). */
  readonly label: string;
  listTables(signal: AbortSignal): Promise<TableSummary[]>;
  /** Finds the table in the catalog by name (exact, then case-insensitive); undefined when there is none. */
  describeTable(name: string, signal: AbortSignal): Promise<TableDescription | undefined>;
  /** The statements that create the whole schema, for the schema resource and prompts. */
  schemaText(signal: AbortSignal): Promise<string>;
  /** Runs one read statement under the read-only rules; throws ToolError for a refused or failing statement. */
  query(request: QueryRequest, signal: AbortSignal): Promise<QueryResult>;
  /**
   * Runs one read like `query` and renders the query tool's result where the rows are (a worker process), so that
   * only two strings travel back; engines without it have their rows rendered by the tool.
   */
  renderQuery?(request: QueryRequest, render: QueryRenderLimits, signal: AbortSignal): Promise<SerializedQueryResult>;
  explain(request: Omit<QueryRequest, 'maxRows'>, signal: AbortSignal): Promise<ExplainResult>;
  /** Runs one write statement; only when the engine is writable. */
  execute(request: QueryRequest, signal: AbortSignal): Promise<ExecuteResult>;
  close(): Promise<void>;
}
