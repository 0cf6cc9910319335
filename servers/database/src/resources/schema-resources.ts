import { defineResource, ToolError } from '@mcpkit/server-kit';
import type { DatabaseDependencies } from '../dependencies.js';
import type { TableSummary } from '../engines/engine.js';
import { catalogNames, errorText, tableText } from '../loaded-on-first-use.js';

/** The whole schema as one resource: the statements that create every table, view, index and trigger. */
export function schemaResource({ engine }: DatabaseDependencies) {
  return defineResource({
    uri: 'database://schema',
    name: 'schema',
    title: `Schema of ${engine.label}`,
    description: 'The CREATE statements of every table, view, index and trigger of the database.',
    mimeType: 'application/sql',
    read: async ({ signal }) => (await engine.schemaText(signal)) || '-- The database has no tables yet.',
  });
}

/**
 * A table's name as describe_table finds it: with its schema outside SQLite's `main` and PostgreSQL's `public`, each
 * part shown by its head when longer than 1,000 characters (`shown`, as list_tables shows it).
 */
function qualifiedName(table: TableSummary, shown = (name: string) => name): string {
  return table.schema === 'main' || table.schema === 'public'
    ? shown(table.name)
    : `${shown(table.schema)}.${shown(table.name)}`;
}

/** One resource per table: its columns, keys and indexes, as describe_table reports them. */
export function tableResources({ engine }: DatabaseDependencies) {
  const tableName = (value: string | string[] | undefined) => {
    try {
      return decodeURIComponent(Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));
    } catch {
      // A malformed escape (`%E0%A4%A`) is the client's mistake: a sentence, not an internal error in the server's log.
      throw new ToolError(
        'The table name in the URI is not valid percent-encoding: encode it as encodeURIComponent does, or take the URI from resources/list.',
      );
    }
  };
  return defineResource({
    template: 'database://tables/{name}',
    name: 'table',
    title: 'Table schema',
    description: "One table's columns, types, primary and foreign keys, and indexes.",
    mimeType: 'text/markdown',
    async read(_uri, variables, { signal }) {
      const name = tableName(variables.name);
      const description = await (await catalogNames()).describeShownTable(engine, name, signal);
      if (!description) throw new ToolError(`There is no table or view named "${(await errorText()).quoted(name)}".`);
      return (await tableText()).tableDescriptionText(description);
    },
    async list({ signal }) {
      // A hostile file's name can be of any length: the list shows it by its head, which the read finds it by.
      const { shownName } = await catalogNames();
      return (await engine.listTables(signal)).map((table) => ({
        uri: `database://tables/${encodeURIComponent(qualifiedName(table, shownName))}`,
        name: qualifiedName(table, shownName),
        title: `${table.type === 'view' ? 'View' : 'Table'} ${shownName(table.name)}`,
        mimeType: 'text/markdown',
      }));
    },
    complete: {
      async name(value) {
        const tables = await engine.listTables(AbortSignal.timeout(10_000));
        const { shownName } = await catalogNames();
        const prefix = value.toLowerCase();
        return tables
          .map((table) => qualifiedName(table, shownName))
          .filter((name) => name.toLowerCase().startsWith(prefix));
      },
    },
  });
}
