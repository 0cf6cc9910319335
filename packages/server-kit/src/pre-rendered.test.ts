import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer } from './create-server.js';
import { defineTool } from './define-tool.js';
import { type Outcome, outcomeOf } from './middleware/outcome.js';
import { isPreRendered, preRendered } from './results.js';
import { checkToolOutput, connectTestClient, protocolEras, resultText } from './testing/index.js';

/** A tool whose handler hands back a pre-rendered result, and counts how often its output schema is checked. */
function renderedTool(structuredJson: string, text = 'two rows', budget?: number) {
  const checks = { count: 0 };
  const tool = defineTool({
    name: 'rendered',
    description: 'Rows rendered elsewhere.',
    output: z.object({ rows: z.array(z.array(z.number())), rowCount: z.number() }).refine(() => ++checks.count > 0),
    ...(budget === undefined ? {} : { budget }),
    handler: () => preRendered(text, structuredJson),
  });
  return { tool, checks };
}

describe('pre-rendered results', () => {
  it('are marked, and hold their text as a text block', () => {
    const value = preRendered('hello', '{"a":1}');
    expect(isPreRendered(value)).toBe(true);
    expect(isPreRendered({ content: [] })).toBe(false);
    expect(value.content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  for (const era of protocolEras) {
    it(`pass through without an output-schema check, seen by middleware as answered (${era})`, async () => {
      const { tool, checks } = renderedTool('{"rows":[[1,2],[3,4]],"rowCount":2}');
      const outcomes: Outcome[] = [];
      await using client = await connectTestClient(
        createServer({
          name: 't',
          version: '1',
          tools: [tool],
          middleware: [
            async (_request, next) => {
              const result = await next();
              outcomes.push(outcomeOf(result));
              return result;
            },
          ],
        }),
        { era },
      );
      const result = await client.callTool('rendered');
      expect(result.isError).toBeFalsy();
      expect(resultText(result)).toBe('two rows');
      expect(result.structuredContent).toEqual({
        rows: [
          [1, 2],
          [3, 4],
        ],
        rowCount: 2,
      });
      expect(checks.count).toBe(0);
      expect(outcomes).toEqual(['ok']);
    });
  }

  it('over the budget take the common path: checked against the schema and cut to fit', async () => {
    const rows = Array.from({ length: 200 }, (_, index) => [index, index * 2]);
    const { tool, checks } = renderedTool(JSON.stringify({ rows, rowCount: rows.length }), 'rows', 1000);
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [tool] }));
    const result = await client.callTool('rendered');
    expect(result.isError).toBeFalsy();
    expect(checks.count).toBeGreaterThan(0);
    expect(JSON.stringify(result.structuredContent).length + resultText(result).length).toBeLessThanOrEqual(1300);
    expect(resultText(result)).toContain('[truncated: ');
  });

  it('are checked against the output schema and the budget by checkToolOutput, in tests', () => {
    const { tool } = renderedTool('{"rows":[[1]],"rowCount":1}', 'one row', 100);
    expect(checkToolOutput(tool, preRendered('one row', '{"rows":[[1]],"rowCount":1}'))).toBeUndefined();
    expect(checkToolOutput(tool, preRendered('one row', '{"rows":[["a"]],"rowCount":1}'))).toMatch(
      /does not match its output schema/,
    );
    expect(checkToolOutput(tool, preRendered('x'.repeat(100), '{"rows":[],"rowCount":0}'))).toMatch(/over its budget/);
    expect(checkToolOutput(tool, { content: [], structuredContent: { rows: [[2]], rowCount: 1 } })).toBeUndefined();
  });
});
