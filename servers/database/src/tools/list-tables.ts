import { decodeCursor, defineTool, encodeCursor, paginate } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { DatabaseDependencies } from '../dependencies.js';
import type { TableSummary } from '../engines/engine.js';
import { catalogNames } from '../loaded-on-first-use.js';

/** Characters of text and structured content one listed table takes at most, besides its names. */
const perTable = 120;

/**
 * The tables of a page that fit the result's budget, at least one: a page of long names (a hostile file's) would
 * otherwise be cut by the budget after its cursor was made, and the tables cut were on no page at all. The names are
 * counted as shown (at most `catalogNameChars` characters each), so one table always fits with the cursor.
 */
function fittingCount(tables: readonly TableSummary[], budget: number): number {
  let size = 500;
  for (let count = 0; count < tables.length; count += 1) {
    const table = tables[count] as TableSummary;
    size += 2 * (JSON.stringify(table.name).length + JSON.stringify(table.schema).length) + perTable;
    if (size > budget && count > 0) return count;
  }
  return tables.length;
}

/** The list_tables tool: every table and view with a row count, a page at a time. */
export function listTables({ engine, limits }: DatabaseDependencies) {
  return defineTool({
    name: 'list_tables',
    title: 'List tables',
    description:
      'List the tables and views of the database with their row counts (estimated when the database keeps ' +
      'statistics). Call it first to learn what there is, then describe_table for the columns.',
    input: z.object({
      cursor: z.string().optional().describe('The nextCursor of the previous page, to get the next one'),
    }),
    output: z.object({
      tables: z.array(
        z.object({
          schema: z.string(),
          name: z.string(),
          type: z.enum(['table', 'view']),
          rows: z.number().nullable(),
          estimated: z.boolean(),
        }),
      ),
      nextCursor: z.string().optional(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    budget: limits.resultChars,
    async handler({ cursor }, { signal }) {
      const { catalogNameChars, shownName, withinItsLine } = await catalogNames();
      // A name past `catalogNameChars` is shown by its head, in the text and the structured content alike;
      // describe_table and the table resources find a table by its name as shown (ADR 0202).
      const tables = (await engine.listTables(signal)).map((table) =>
        table.name.length > catalogNameChars || table.schema.length > catalogNameChars
          ? { ...table, schema: shownName(table.schema), name: shownName(table.name) }
          : table,
      );
      const page = paginate(tables, cursor, limits.tablePageSize);
      const fitting = fittingCount(page.items, limits.resultChars);
      if (fitting < page.items.length) {
        // The next page starts at the first table left out (paginate has checked the cursor already).
        const offset = cursor === undefined ? 0 : (decodeCursor(cursor).offset as number);
        page.items = page.items.slice(0, fitting);
        page.nextCursor = encodeCursor({ offset: offset + fitting });
      }
      const lines = page.items.map((table) => {
        const rows =
          table.rows === null
            ? ''
            : `, ${table.estimated ? '~' : ''}${table.rows.toLocaleString('en-US')} row${table.rows === 1 ? '' : 's'}`;
        // The names are shown already: only a line break is left to quote.
        const name = withinItsLine(engine.dialect === 'postgres' ? `${table.schema}.${table.name}` : table.name);
        return `- ${name} (${table.type}${rows})`;
      });
      const text =
        lines.length === 0
          ? 'The database has no tables or views.'
          : `Tables and views (${lines.length}):\n${lines.join('\n')}${page.nextCursor ? `\n[more tables: call list_tables with cursor "${page.nextCursor}"]` : ''}`;
      return {
        content: [{ type: 'text', text }],
        structuredContent: { tables: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
      };
    },
  });
}
