import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { DatabaseDependencies } from '../dependencies.js';
import { catalogNames, errorText, tableText } from '../loaded-on-first-use.js';

/** The describe_table tool: a table's columns, keys and indexes, found by name in the catalog. */
export function describeTable({ engine }: DatabaseDependencies) {
  return defineTool({
    name: 'describe_table',
    title: 'Describe a table',
    description:
      'Describe one table or view: its columns (type, nullability, default), primary key, foreign keys and ' +
      'indexes. The name is looked up in the catalog (exact, then case-insensitive).',
    input: z.object({ table: z.string().trim().min(1).describe('The table or view name, as list_tables shows it') }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler({ table }, { signal }) {
      // A name longer than 1,000 characters is shown by its head (list_tables): found by that too.
      const description = await (await catalogNames()).describeShownTable(engine, table, signal);
      if (!description) {
        // The name as sent can be megabytes long, and an error result is outside the result budget.
        const name = (await errorText()).quoted(table);
        throw new ToolError(`There is no table or view named "${name}". Call list_tables to see the names there are.`);
      }
      return {
        content: [{ type: 'text', text: (await tableText()).tableDescriptionText(description) }],
        structuredContent: { ...description },
      };
    },
  });
}
