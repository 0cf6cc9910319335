import type Database from 'better-sqlite3';
import { quoted } from '../../error-text.js';
import { StatementError } from '../../statement-safety.js';
import type { ForeignKeyDescription, IndexDescription, TableDescription, TableSummary } from '../engine.js';

type Row = Record<string, unknown>;

/** Quotes a name read from the catalog as an SQL identifier (never a name the model typed). */
function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Whether SQLite failed because another connection holds a lock: worth saying as such, and trying again later. */
export function isLockError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/** Tables and views of the main database, with row counts (from sqlite_stat1 when ANALYZE ran, else counted). */
export function listTables(db: Database.Database): TableSummary[] {
  const objects = db
    .prepare(
      "SELECT name, type, sql LIKE 'CREATE VIRTUAL TABLE%' AS virtual FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .all() as { name: string; type: 'table' | 'view'; virtual: number | null }[];
  const statistics = new Map<string, number>();
  const hasStatistics = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get() !== undefined;
  if (hasStatistics) {
    try {
      for (const row of db.prepare('SELECT tbl, stat FROM sqlite_stat1').all() as { tbl: string; stat: string }[]) {
        const rows = Number.parseInt(row.stat, 10);
        if (Number.isFinite(rows)) statistics.set(row.tbl, Math.max(statistics.get(row.tbl) ?? 0, rows));
      }
    } catch (error) {
      // A statistics table a file made without ANALYZE (other columns, a damaged b-tree): the tables are counted.
      if (isLockError(error)) throw error;
      statistics.clear();
    }
  }
  return objects.map(({ name, type, virtual }) => {
    // Counting a view runs it, and counting a virtual table runs its module, which can read anything: an FTS5 table
    // whose external content is a view over a recursive CTE never finished, and held every list_tables to its deadline.
    if (type === 'view' || virtual === 1) return { schema: 'main', name, type, rows: null, estimated: false };
    const estimate = statistics.get(name);
    if (estimate !== undefined) return { schema: 'main', name, type, rows: estimate, estimated: true };
    // count(*) of a whole table walks the b-tree without reading rows: milliseconds even for millions of rows. A
    // table SQLite cannot count (a virtual table of a module this build lacks, a damaged b-tree) is listed without a
    // count instead of failing the whole list; a lock fails it, with the sentence that says so.
    let counted: number | null;
    try {
      counted = db
        .prepare(`SELECT count(*) AS rows FROM ${quoteIdentifier(name)}`)
        .pluck()
        .get() as number;
    } catch (error) {
      if (isLockError(error)) throw error;
      counted = null;
    }
    return { schema: 'main', name, type, rows: counted, estimated: false };
  });
}

/** Finds a table or view by exact name, then case-insensitively; the name is only ever a bound parameter. */
function findObject(db: Database.Database, name: string) {
  const query = "SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND ";
  return (db.prepare(`${query}name = ?`).get(name) ?? db.prepare(`${query}lower(name) = lower(?)`).get(name)) as
    | { name: string; type: 'table' | 'view'; sql: string | null }
    | undefined;
}

/** Columns, keys and indexes of one table, read through the pragma table functions with the name bound. */
export function describeTable(db: Database.Database, requested: string): TableDescription | undefined {
  const found = findObject(db, requested);
  if (!found) return undefined;
  try {
    return describeFound(db, found);
  } catch (error) {
    if (isLockError(error)) throw error;
    // A view over a table that is gone, a virtual table of a module this build lacks, a damaged file: SQLite's reason,
    // for this name, not a failure of the worker (which the server would try again, then call a crash).
    const message = error instanceof Error ? error.message : String(error);
    throw new StatementError(
      `The ${found.type} "${quoted(found.name)}" cannot be described: SQLite cannot read its columns (SQLite: ${quoted(message)}). Its definition is in the resource database://schema.`,
    );
  }
}

/** Columns, keys and indexes of a table or view found in the catalog. */
function describeFound(
  db: Database.Database,
  found: { name: string; type: 'table' | 'view'; sql: string | null },
): TableDescription {
  const columns = (db.prepare('SELECT * FROM pragma_table_xinfo(?)').all(found.name) as Row[])
    .filter((column) => column.hidden !== 1)
    .map((column) => ({
      name: String(column.name),
      type: String(column.type ?? ''),
      nullable: column.notnull === 0 && column.pk === 0,
      default: column.dflt_value === null ? null : String(column.dflt_value),
      primaryKey: Number(column.pk),
    }));
  const keys = new Map<number, ForeignKeyDescription>();
  for (const row of db.prepare('SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq').all(found.name) as Row[]) {
    const id = Number(row.id);
    const key = keys.get(id) ?? {
      columns: [],
      references: { table: String(row.table), columns: [] },
      onUpdate: String(row.on_update),
      onDelete: String(row.on_delete),
    };
    key.columns.push(String(row.from));
    if (row.to !== null) key.references.columns.push(String(row.to));
    keys.set(id, key);
  }
  const indexes: IndexDescription[] = (
    db.prepare('SELECT * FROM pragma_index_list(?) ORDER BY name').all(found.name) as Row[]
  ).map((index) => ({
    name: String(index.name),
    unique: index.unique === 1,
    origin: String(index.origin),
    columns: (db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(String(index.name)) as Row[]).map(
      (column) => String(column.name ?? '(expression)'),
    ),
  }));
  return {
    schema: 'main',
    name: found.name,
    type: found.type,
    columns,
    foreignKeys: [...keys.values()],
    indexes,
    definition: found.sql,
  };
}

/**
 * Characters of schema text at most (the schema resource; the prompts embed far less). A file's CREATE statements can
 * be of any size (a CHECK or DEFAULT with a long literal, thousands of tables), and a resource is outside the result
 * budget: all of it crossed the channel and went to the client as one message.
 */
export const schemaChars = 1_000_000;

/** The CREATE statements of the schema, up to `schemaChars`: tables first, then views, indexes and triggers. */
export function schemaText(db: Database.Database): string {
  const statements = db
    .prepare(
      "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 WHEN 'index' THEN 2 ELSE 3 END, name",
    )
    .pluck()
    .iterate() as IterableIterator<string>;
  const kept: string[] = [];
  let length = 0;
  for (const statement of statements) {
    // 200 characters are kept for the line that says the schema goes on.
    length += statement.length + 3;
    if (length > schemaChars - 200) {
      kept.push(
        `-- The schema goes on past ${schemaChars.toLocaleString('en-US')} characters: list_tables lists every table, describe_table describes one.`,
      );
      break;
    }
    kept.push(`${statement};`);
  }
  return kept.join('\n\n');
}
