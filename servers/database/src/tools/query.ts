import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { DatabaseDependencies } from '../dependencies.js';
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
    async handler({ sql, params, max_rows }, { signal }) {
      const requested = max_rows ?? limits.maxRows;
      const result = await engine.query({ sql, params, maxRows: requested }, signal);
      const structured = {
        columns: result.columns,
        rows: result.rows,
        rowCount: result.rows.length,
        ...(result.truncated ? { truncated: result.truncated } : {}),
        ...(result.totalRows !== undefined ? { totalRows: result.totalRows } : {}),
        ...(result.totalRowsAtLeast !== undefined ? { totalRowsAtLeast: result.totalRowsAtLeast } : {}),
      };
      return {
        content: [{ type: 'text', text: queryResultText(result, { maxRows: limits.maxRows, requested }) }],
        structuredContent: structured,
      };
    },
  });
}
