import { defineTool, preRendered } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { DatabaseDependencies } from '../dependencies.js';
import { resultRendering } from '../loaded-on-first-use.js';
import { rowsOutput, statementParameters, statementSql } from './schemas.js';

/** The query tool's structured content: the rows, and how many there were. */
export const queryOutput = z.object({ ...rowsOutput, rowCount: z.number() });

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
    output: queryOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    budget: limits.resultChars,
    async handler({ sql, params, max_rows }, { signal }) {
      const request = { sql, params, maxRows: max_rows ?? limits.maxRows };
      const render = { budget: limits.resultChars, maxRows: limits.maxRows };
      // Text and structured content hold the same rows, and together they stay within the budget; rendered where the
      // rows are (SQLite's worker process) or here, they go to the client as built (ADR 0018; the suite checks them
      // against queryOutput).
      const { text, structuredJson } = engine.renderQuery
        ? await engine.renderQuery(request, render, signal)
        : (await resultRendering()).serializeQueryResult(await engine.query(request, signal), {
            ...render,
            requested: request.maxRows,
          });
      return preRendered(text, structuredJson);
    },
  });
}
