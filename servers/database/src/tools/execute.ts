import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { DatabaseDependencies } from '../dependencies.js';
import { resultRendering, statementSafety } from '../loaded-on-first-use.js';
import type { RenderedResult } from '../result-budget.js';
import { statementParameters, statementSql } from './schemas.js';

/**
 * The execute tool (only with --allow-write): one write statement, confirmed by the user when it destroys data; over
 * HTTP as a protected resource, only for tokens that grant `writeScope`.
 */
export function execute({ engine, limits }: DatabaseDependencies, writeScope: string) {
  return defineTool({
    name: 'execute',
    title: 'Run a write statement',
    description:
      'Run one SQL statement that changes the database (INSERT, UPDATE, DELETE, CREATE, ALTER, DROP) with values ' +
      'in params. Reports the rows changed and the last inserted row id. DROP, and DELETE or UPDATE without WHERE, ' +
      'ask the user to confirm first when the client can ask. Use query for reads.',
    input: z.object({ sql: statementSql, params: statementParameters }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    scopes: [writeScope],
    budget: limits.resultChars,
    async handler({ sql, params }, context) {
      const reason = (await statementSafety()).destructiveReason(sql);
      if (reason && context.client.supports('elicitation')) {
        const answer = await context.elicit(
          `The model wants to run a destructive statement on ${engine.label}: ${reason}.\n\n${sql}\n\nRun it?`,
          z.object({ confirm: z.boolean().describe('Run the statement') }),
        );
        if (answer.action !== 'accept' || !answer.content.confirm) {
          throw new ToolError(`The user did not confirm the statement (${reason}), so it was not run.`);
        }
      }
      const result = await engine.execute({ sql, params, maxRows: limits.maxRows }, context.signal);
      const rowid = result.lastInsertRowid === null ? '' : `; last inserted row id ${result.lastInsertRowid}`;
      const summary = `Statement ran in ${Math.round(result.elapsedMs)} ms: ${result.changes.toLocaleString('en-US')} row${result.changes === 1 ? '' : 's'} changed${rowid}.`;
      const facts = { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
      let rendered: RenderedResult = { text: summary, structured: facts };
      if (result.returned) {
        // RETURNING rows are held to the budget like a query's, the same rows in the text and the structured content.
        const { fitToBudget, queryResultText } = await resultRendering();
        rendered = fitToBudget(result.returned, limits.resultChars, (shown) => ({
          text: `${summary}\n${queryResultText(shown, { maxRows: limits.maxRows, requested: limits.maxRows })}`,
          structured: {
            ...facts,
            columns: shown.columns,
            rows: shown.rows,
            ...(shown.omittedColumns ? { omittedColumns: shown.omittedColumns } : {}),
          },
        }));
      }
      return { content: [{ type: 'text', text: rendered.text }], structuredContent: rendered.structured };
    },
  });
}
