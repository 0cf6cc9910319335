import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { DatabaseDependencies } from '../dependencies.js';
import { fitToBudget } from '../result-budget.js';
import { queryResultText } from '../result-text.js';
import { rowsOutput, statementParameters, statementSql } from './schemas.js';

/** The query tool: one read statement with bound parameters, capped in rows, size and time. */
export function query({ engine, limits }: DatabaseDependencies) {
  return defineTool({
    name: 'query',
    title: 'Run a read-only SQL query',
    description:
      `Run one read-only SQL statement (SELECT, WITH, VALUES, EXPLAIN, or a schema PRAGMA such as table_info) on the ${engine.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database and get its rows. ` +
      `Put values in params with ${engine.dialect === 'sqlite' ? '? or :name' : '$1, $2, ...'} placeholders. Returns at most max_rows rows (default and ceiling ${limits.maxRows}) and says when it cut; ` +
      `page with LIMIT/OFFSET for more. Stops after ${limits.timeoutMs} ms. Call list_tables and describe_table first when you do not know the schema.`,
    input: z.object({
      sql: statementSql,
      params: statementParameters,
      max_rows: z
        .number()
        .int()
        .positive()
        .max(limits.maxRows)
        .optional()
        .describe(`Rows returned at most (default ${limits.maxRows})`),
    }),
    output: z.object({ ...rowsOutput, rowCount: z.number() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    budget: limits.resultChars,
    async handler({ sql, params, max_rows }, { signal }) {
      const requested = max_rows ?? limits.maxRows;
      const result = await engine.query({ sql, params, maxRows: requested }, signal);
      // Text and structured content hold the same rows, and together they stay within the budget.
      const { text, structured } = fitToBudget(result, limits.resultChars, (shown) => ({
        text: queryResultText(shown, { maxRows: limits.maxRows, requested }),
        structured: {
          columns: shown.columns,
          rows: shown.rows,
          rowCount: shown.rows.length,
          ...(shown.truncated ? { truncated: shown.truncated } : {}),
          ...(shown.totalRows !== undefined ? { totalRows: shown.totalRows } : {}),
          ...(shown.totalRowsAtLeast !== undefined ? { totalRowsAtLeast: shown.totalRowsAtLeast } : {}),
          ...(shown.omittedColumns ? { omittedColumns: shown.omittedColumns } : {}),
        },
      }));
      return { content: [{ type: 'text', text }], structuredContent: structured };
    },
  });
}
