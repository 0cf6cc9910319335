import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { DatabaseDependencies } from '../dependencies.js';
import { statementParameters, statementSql } from './schemas.js';

/** The explain_query tool: the engine's plan of one statement, which is prepared but never run. */
export function explainQuery({ engine }: DatabaseDependencies) {
  return defineTool({
    name: 'explain_query',
    title: 'Show a query plan',
    description:
      'Show how the database would run one SQL statement (its query plan: table scans, index searches, temporary ' +
      'B-trees), without running it. Use it to see why a query is slow or whether an index is used.',
    input: z.object({ sql: statementSql, params: statementParameters }),
    output: z.object({ plan: z.array(z.string()) }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler({ sql, params }, { signal }) {
      const { plan } = await engine.explain({ sql, params }, signal);
      return {
        content: [{ type: 'text', text: `Query plan:\n${plan.join('\n')}` }],
        structuredContent: { plan },
      };
    },
  });
}
