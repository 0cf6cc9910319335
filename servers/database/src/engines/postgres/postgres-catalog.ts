import type pg from 'pg';
import type { ColumnDescription, ForeignKeyDescription, TableDescription, TableSummary } from '../engine.js';

/** Runs a catalog query with bound parameters. */
type Run = (text: string, values?: unknown[]) => Promise<pg.QueryResult>;

const userRelations = `c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'`;

const actions: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

/** Tables and views of every user schema, with the planner's row estimates (counted when never analysed). */
export async function listTables(run: Run, quote: (name: string) => string): Promise<TableSummary[]> {
  const { rows } = await run(
    `SELECT n.nspname AS schema, c.relname AS name, c.relkind AS kind, c.reltuples::float8 AS estimate
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${userRelations} ORDER BY 1, 2`,
  );
  const tables: TableSummary[] = [];
  for (const row of rows as { schema: string; name: string; kind: string; estimate: number }[]) {
    const type = row.kind === 'v' || row.kind === 'm' ? 'view' : 'table';
    if (type === 'view') {
      tables.push({ schema: row.schema, name: row.name, type, rows: null, estimated: false });
    } else if (row.estimate >= 0) {
      tables.push({ schema: row.schema, name: row.name, type, rows: Math.round(row.estimate), estimated: true });
    } else {
      // Never analysed: count, up to a cap, so a huge table costs a bounded scan.
      const cap = 100_000;
      const counted = await run(
        `SELECT count(*)::int AS rows FROM (SELECT 1 FROM ${quote(row.schema)}.${quote(row.name)} LIMIT ${cap}) AS sample`,
      );
      const value = Number((counted.rows[0] as { rows: number }).rows);
      tables.push({ schema: row.schema, name: row.name, type, rows: value, estimated: value >= cap });
    }
  }
  return tables;
}

/** Finds a relation by `name` or `schema.name`: exact, then case-insensitive; `public` first. */
async function findRelation(run: Run, requested: string) {
  const dot = requested.indexOf('.');
  const schema = dot === -1 ? null : requested.slice(0, dot);
  const name = dot === -1 ? requested : requested.slice(dot + 1);
  for (const compare of ['=', 'ILIKE']) {
    const { rows } = await run(
      `SELECT c.oid::int AS oid, n.nspname AS schema, c.relname AS name, c.relkind AS kind
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE ${userRelations} AND ($1::text IS NULL OR n.nspname ${compare} $1) AND c.relname ${compare} $2
       ORDER BY n.nspname = 'public' DESC, n.nspname LIMIT 1`,
      [schema, compare === 'ILIKE' ? name.replace(/[\\%_]/g, '\\$&') : name],
    );
    if (rows[0]) return rows[0] as { oid: number; schema: string; name: string; kind: string };
  }
  return undefined;
}

/** A relation's columns, primary key, foreign keys and indexes, from pg_catalog with the name bound. */
export async function describeTable(run: Run, requested: string): Promise<TableDescription | undefined> {
  const found = await findRelation(run, requested);
  if (!found) return undefined;
  const columnRows = (
    await run(
      `SELECT a.attnum AS number, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
         NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS "default"
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [found.oid],
    )
  ).rows as { number: number; name: string; type: string; nullable: boolean; default: string | null }[];
  const names = new Map(columnRows.map((column) => [column.number, column.name]));
  const primary = (await run(`SELECT conkey FROM pg_constraint WHERE conrelid = $1 AND contype = 'p'`, [found.oid]))
    .rows[0] as { conkey: number[] } | undefined;
  const columns: ColumnDescription[] = columnRows.map((column) => ({
    name: column.name,
    type: column.type,
    nullable: column.nullable,
    default: column.default,
    primaryKey: (primary?.conkey.indexOf(column.number) ?? -1) + 1,
  }));
  const foreignRows = (
    await run(
      `SELECT con.conkey, con.confupdtype, con.confdeltype, con.confrelid::regclass::text AS target,
         ARRAY(SELECT attname FROM unnest(con.confkey) WITH ORDINALITY AS k(number, position)
               JOIN pg_attribute ON attrelid = con.confrelid AND attnum = k.number ORDER BY k.position)::text[] AS target_columns
       FROM pg_constraint con WHERE con.conrelid = $1 AND con.contype = 'f' ORDER BY con.conname`,
      [found.oid],
    )
  ).rows as { conkey: number[]; confupdtype: string; confdeltype: string; target: string; target_columns: string[] }[];
  const foreignKeys: ForeignKeyDescription[] = foreignRows.map((row) => ({
    columns: row.conkey.map((number) => names.get(number) ?? String(number)),
    references: { table: row.target, columns: row.target_columns },
    onUpdate: actions[row.confupdtype] ?? row.confupdtype,
    onDelete: actions[row.confdeltype] ?? row.confdeltype,
  }));
  const indexRows = (
    await run(
      `SELECT i.relname AS name, ix.indisunique AS unique, ix.indisprimary AS primary,
         EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = ix.indexrelid AND contype = 'u') AS constraint,
         ARRAY(SELECT pg_get_indexdef(ix.indexrelid, k + 1, true) FROM generate_subscripts(ix.indkey, 1) AS k ORDER BY k)::text[] AS columns
       FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid WHERE ix.indrelid = $1 ORDER BY i.relname`,
      [found.oid],
    )
  ).rows as { name: string; unique: boolean; primary: boolean; constraint: boolean; columns: string[] }[];
  const isView = found.kind === 'v' || found.kind === 'm';
  const definition = isView
    ? ((await run('SELECT pg_get_viewdef($1::oid, true) AS sql', [found.oid])).rows[0] as { sql: string }).sql
    : null;
  return {
    schema: found.schema,
    name: found.name,
    type: isView ? 'view' : 'table',
    columns,
    foreignKeys,
    indexes: indexRows.map((index) => ({
      name: index.name,
      columns: index.columns,
      unique: index.unique,
      origin: index.primary ? 'pk' : index.constraint ? 'u' : 'c',
    })),
    definition: definition === null ? null : `CREATE VIEW ${found.schema}.${found.name} AS\n${definition.trim()}`,
  };
}

/** A CREATE TABLE statement rebuilt from a description (PostgreSQL keeps no original text for tables). */
export function createStatement(table: TableDescription): string {
  if (table.definition) return table.definition.replace(/;?\s*$/, ';');
  const lines = table.columns.map(
    (column) =>
      `  ${column.name} ${column.type}${column.nullable ? '' : ' NOT NULL'}${column.default !== null ? ` DEFAULT ${column.default}` : ''}`,
  );
  const key = table.columns.filter((column) => column.primaryKey > 0).sort((a, b) => a.primaryKey - b.primaryKey);
  if (key.length > 0) lines.push(`  PRIMARY KEY (${key.map((column) => column.name).join(', ')})`);
  for (const foreign of table.foreignKeys) {
    lines.push(
      `  FOREIGN KEY (${foreign.columns.join(', ')}) REFERENCES ${foreign.references.table} (${foreign.references.columns.join(', ')})`,
    );
  }
  const indexes = table.indexes
    .filter((index) => index.origin === 'c')
    .map(
      (index) =>
        `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${index.name} ON ${table.schema}.${table.name} (${index.columns.join(', ')});`,
    );
  return [`CREATE TABLE ${table.schema}.${table.name} (\n${lines.join(',\n')}\n);`, ...indexes].join('\n');
}
