import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { budgetText, cutAtBoundary, defaultBudget, truncationNote } from './budget.js';
import { createServer } from './create-server.js';
import { defineTool } from './define-tool.js';
import { KitError } from './errors.js';
import { connectTestClient, resultText } from './testing/index.js';

describe('cutAtBoundary', () => {
  it('keeps a value within the limit whole', () => {
    expect(cutAtBoundary('short', 10)).toBe('short');
  });

  it('cuts after the last line break in the final fifth of the budget', () => {
    const value = `${'a'.repeat(85)}\n${'b'.repeat(50)}`;
    expect(cutAtBoundary(value, 100)).toBe(`${'a'.repeat(85)}\n`);
  });

  it('falls back to the last space, then to the limit itself', () => {
    expect(cutAtBoundary(`${'a'.repeat(90)} ${'b'.repeat(50)}`, 100)).toBe(`${'a'.repeat(90)} `);
    expect(cutAtBoundary('x'.repeat(150), 100)).toBe('x'.repeat(100));
    // a line break too early in the budget is not a clean place to cut: it would throw most of the budget away
    expect(cutAtBoundary(`ab\n${'c'.repeat(200)}`, 100)).toHaveLength(100);
  });

  it('never splits a surrogate pair', () => {
    const value = `${'x'.repeat(99)}😀tail`;
    const cut = cutAtBoundary(value, 100);
    expect(cut).toBe('x'.repeat(99));
    expect(cut.charCodeAt(cut.length - 1)).toBe('x'.charCodeAt(0));
  });
});

describe('budgetText and truncationNote', () => {
  it('reports what was kept and the offset at which the rest starts', () => {
    expect(budgetText('one two three four', 9)).toEqual({ text: 'one two ', truncated: true, shown: 8, total: 18 });
    // no boundary in the final fifth: a hard cut at the budget
    expect(budgetText('one two three four', 10).text).toBe('one two th');
    expect(budgetText('fits', 10)).toEqual({ text: 'fits', truncated: false, shown: 4, total: 4 });
  });

  it('says how much was shown and how to get the rest', () => {
    expect(truncationNote(1000, 123456, 'Call again with offset=1000.')).toBe(
      '[truncated: showed 1,000 of 123,456 characters. Call again with offset=1000.]',
    );
    expect(truncationNote(1, 2)).toContain('narrow the request');
  });
});

describe('budgets on a server', () => {
  const long = defineTool({
    name: 'long',
    description: 'Returns 300 words.',
    handler: () => Array.from({ length: 300 }, (_, index) => `word${index}`).join(' '),
  });

  it('applies the server budget to every tool, and a tool budget over it', async () => {
    const own = defineTool({ ...long, name: 'own', budget: 50 });
    await using client = await connectTestClient(
      createServer({ name: 't', version: '1', tools: [long, own], budget: 200 }),
    );
    const serverCut = await client.callToolText('long');
    expect(serverCut.split('\n[truncated')[0]?.length).toBeLessThanOrEqual(200);
    const total = (await long.handler({}, {} as never)) as string;
    expect(serverCut).toContain(`of ${total.length.toLocaleString('en-US')} characters.`);
    const toolCut = await client.callToolText('own');
    expect(toolCut.split('\n[truncated')[0]?.length).toBeLessThanOrEqual(50);
  });

  it('holds structured content to the budget too, valid against the output schema, or says it cannot', async () => {
    const rows = Array.from({ length: 40_000 }, (_, index) => ({ id: index, text: 'x'.repeat(100) }));
    const wide = defineTool({
      name: 'wide',
      description: 'Four megabytes of rows.',
      output: z.object({ rows: z.array(z.object({ id: z.number(), text: z.string() })), rowCount: z.number() }),
      handler: () => ({
        content: [{ type: 'text', text: 'rows' }],
        structuredContent: { rows, rowCount: rows.length },
      }),
    });
    const exact = defineTool({
      name: 'exact',
      description: 'Rows that may not be cut.',
      output: z.object({ rows: z.array(z.string()).length(1000) }),
      budget: 1000,
      truncationHint: 'Ask for fewer rows.',
      handler: () => ({ rows: Array.from({ length: 1000 }, () => 'row') }),
    });
    await using client = await connectTestClient(
      createServer({ name: 't', version: '1', tools: [wide, exact], budget: 60_000 }),
    );
    const cut = await client.callTool('wide');
    expect(cut.isError).toBeFalsy();
    expect(JSON.stringify(cut.structuredContent).length + resultText(cut).length).toBeLessThanOrEqual(60_300);
    expect((cut.structuredContent as { rowCount: number }).rowCount).toBe(40_000);
    expect(resultText(cut)).toMatch(/rows: kept [\d,]+ of 40,000 items/);
    const refused = await client.callTool('exact');
    expect(refused).toEqual({
      content: [
        {
          type: 'text',
          text: 'The result was too large to send: its structured content does not fit the budget of 1,000 characters. Ask for fewer rows.',
        },
      ],
      isError: true,
    });
  });

  it('defaults to about 25,000 tokens (100,000 characters)', async () => {
    expect(defaultBudget).toBe(100_000);
    const huge = defineTool({ name: 'huge', description: 'Too big.', handler: () => 'x'.repeat(150_000) });
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [huge] }));
    const text = await client.callToolText('huge');
    expect(text.startsWith('x'.repeat(100_000))).toBe(true);
    expect(text).toContain('showed 100,000 of 150,000 characters');
  });

  it('rejects a budget that is not a positive integer at definition time', () => {
    expect(() => defineTool({ name: 'bad', description: 'x', budget: 0, handler: () => '' })).toThrow(KitError);
    expect(() => defineTool({ name: 'bad', description: 'x', mediaBudget: -1, handler: () => '' })).toThrow(KitError);
    expect(() => createServer({ name: 't', version: '1', budget: 1.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});
