import { describe, expect, it } from 'vitest';
import { applyBudget } from './result-budget.js';
import { resultText } from './testing/index.js';

describe('applyBudget', () => {
  it('leaves a result within budget untouched', () => {
    const result = { content: [{ type: 'text' as const, text: 'small' }] };
    expect(applyBudget(result, 100)).toBe(result);
  });

  it('keeps whole blocks that fit, cuts the block that crosses, drops later text, keeps images', () => {
    const result = applyBudget(
      {
        content: [
          { type: 'text', text: 'a'.repeat(70) },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'text', text: `${'b'.repeat(6)} ${'c'.repeat(30)}` },
          { type: 'text', text: 'dropped' },
        ],
      },
      100,
      'Ask for page 2.',
    );
    expect(result.content.map((block) => block.type)).toEqual(['text', 'image', 'text', 'text']);
    expect(result.content[2]).toEqual({ type: 'text', text: `${'b'.repeat(6)} ${'c'.repeat(23)}` });
    expect(resultText(result)).not.toContain('dropped');
    expect(result.content[3]).toEqual({
      type: 'text',
      text: '[truncated: showed 100 of 114 characters. Ask for page 2.]',
    });
  });

  it('counts structured content against the same budget: a small one is kept, the text gets the rest', () => {
    const result = applyBudget(
      { content: [{ type: 'text', text: 'a'.repeat(200) }], structuredContent: { kept: true } },
      100,
      'Ask for page 2.',
    );
    expect(result.structuredContent).toEqual({ kept: true });
    expect(result.content[0]).toEqual({ type: 'text', text: 'a'.repeat(87) });
    expect(resultText(result)).toContain('[truncated: showed 87 of 200 characters. Ask for page 2.]');
  });

  it('cuts large structured content keeping its shape, and says what it cut', () => {
    const rows = Array.from({ length: 50_000 }, (_, index) => [index, 'x'.repeat(80)]);
    const result = applyBudget(
      { content: [{ type: 'text', text: 'short summary' }], structuredContent: { columns: ['n', 'x'], rows } },
      60_000,
    );
    const sent = JSON.stringify(result.structuredContent).length + resultText(result).length;
    expect(sent).toBeLessThanOrEqual(60_000 + 300);
    const kept = (result.structuredContent as { rows: unknown[] }).rows;
    expect(kept.length).toBeGreaterThan(500);
    // whole rows, then at most one row cut short (the note names it)
    expect(kept.slice(0, -1)).toEqual(rows.slice(0, kept.length - 1));
    expect(result.content[0]).toEqual({ type: 'text', text: 'short summary' });
    expect(resultText(result)).toContain('[truncated: structured content cut to fit (');
    expect(resultText(result)).toContain(`rows: kept ${kept.length.toLocaleString('en-US')} of 50,000 items`);
  });

  it('leaves out structured content that cannot be cut when there is no schema, and gives its room to the text', () => {
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`key${index}`, index]));
    const result = applyBudget({ content: [{ type: 'text', text: 'y'.repeat(500) }], structuredContent: wide }, 100);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]).toEqual({ type: 'text', text: 'y'.repeat(100) });
    expect(resultText(result)).toContain('structured content left out: it did not fit');
  });

  it('returns an error result when the cut structured content would break the output schema', () => {
    const result = applyBudget(
      {
        content: [{ type: 'text', text: 'rows' }],
        structuredContent: { rows: Array.from({ length: 1000 }, () => 'row') },
      },
      100,
      { hint: 'Use LIMIT.', accepts: (value) => (value.rows as unknown[]).length === 1000 },
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(resultText(result)).toBe(
      'The result was too large to send: its structured content does not fit the budget of 100 characters. Use LIMIT.',
    );
  });

  it('cuts the text of embedded resources and leaves out binary data over the media budget', () => {
    const result = applyBudget(
      {
        content: [
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'z'.repeat(1000) } },
          { type: 'image', data: 'A'.repeat(64), mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'B'.repeat(64) } },
        ],
      },
      100,
      { mediaBudget: 100 },
    );
    expect(result.content.map((block) => block.type)).toEqual(['resource', 'image', 'text']);
    expect(result.content[0]).toEqual({ type: 'resource', resource: { uri: 'file:///a.txt', text: 'z'.repeat(100) } });
    expect(resultText(result)).toContain(
      'showed 100 of 1,000 characters; left out 1 image, audio or file block over the 100-character media budget',
    );
  });
});
