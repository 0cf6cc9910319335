import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { DatabaseDependencies } from '../dependencies.js';
import { queryResultText } from '../result-text.js';
import { destructiveReason } from '../statement-safety.js';
import { statementParameters, statementSql } from './schemas.js';

/** The execute tool (only with --allow-write): one write statement, confirmed by the user when it destroys data. */
export function execute({ engine, limits }: DatabaseDependencies) {
  return defineTool({
    name: 'execute',
    title: 'Run a write statement',
    description:
      'Run one SQL statement that changes the database (INSERT, UPDATE, DELETE, CREATE, ALTER, DROP) with values ' +
      'in params. Reports the rows changed and the last inserted row id. DROP, and DELETE or UPDATE without WHERE, ' +
      'ask the user to confirm first when the client can ask. Use query for reads.',
    input: z.object({ sql: statementSql, params: statementParameters }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler({ sql, params }, context) {
      const reason = destructiveReason(sql);
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
      let text = `Statement ran in ${Math.round(result.elapsedMs)} ms: ${result.changes.toLocaleString('en-US')} row${result.changes === 1 ? '' : 's'} changed${rowid}.`;
      if (result.returned) {
        text += `\n${queryResultText(result.returned, { maxRows: limits.maxRows, requested: limits.maxRows })}`;
      }
      return {
        content: [{ type: 'text', text }],
        structuredContent: {
          changes: result.changes,
          lastInsertRowid: result.lastInsertRowid,
          ...(result.returned ? { columns: result.returned.columns, rows: result.returned.rows } : {}),
        },
      };
    },
  });
}
