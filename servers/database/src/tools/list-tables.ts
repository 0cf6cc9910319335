import { defineTool, paginate } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { DatabaseDependencies } from '../dependencies.js';

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
    async handler({ cursor }, { signal }) {
      const page = paginate(await engine.listTables(signal), cursor, limits.tablePageSize);
      const lines = page.items.map((table) => {
        const rows =
          table.rows === null
            ? ''
            : `, ${table.estimated ? '~' : ''}${table.rows.toLocaleString('en-US')} row${table.rows === 1 ? '' : 's'}`;
        const name = engine.dialect === 'postgres' ? `${table.schema}.${table.name}` : table.name;
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
