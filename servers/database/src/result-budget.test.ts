import { describe, expect, it } from 'vitest';
import type { QueryResult } from './engines/engine.js';
import { fitToBudget, type RenderedResult, renderedSize } from './result-budget.js';
import { queryResultText } from './result-text.js';

function render(result: QueryResult): RenderedResult {
  return {
    text: queryResultText(result, { maxRows: 500, requested: 500 }),
    structured: {
      columns: result.columns,
      rows: result.rows,
      ...(result.truncated ? { truncated: result.truncated } : {}),
      ...(result.omittedColumns ? { omittedColumns: result.omittedColumns } : {}),
    },
  };
}

function result(columns: string[], rows: QueryResult['rows']): QueryResult {
  return { columns, rows, totalRows: rows.length, shortenedCells: 0, elapsedMs: 1 };
}

describe('fitToBudget', () => {
  it('leaves a result that fits as it is', () => {
    const small = result(['id'], [[1], [2]]);
    expect(fitToBudget(small, 10_000, render)).toEqual(render(small));
  });

  it('cuts trailing rows, the same ones in the text and the structured content, and says so', () => {
    const rows = Array.from({ length: 400 }, (_, index) => [index, 'x'.repeat(300)]);
    const fitted = fitToBudget(result(['n', 'text'], rows), 20_000, render);
    expect(renderedSize(fitted)).toBeLessThanOrEqual(20_000);
    const kept = fitted.structured.rows as unknown[][];
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBeLessThan(400);
    expect(fitted.structured.truncated).toBe('byte_budget');
    expect(fitted.text).toContain(`| ${kept.length - 1} | ${'x'.repeat(300)} |`);
    expect(fitted.text).not.toContain(`| ${kept.length} | `);
    expect(fitted.text).toContain(`showed ${kept.length} rows of 400 rows to stay within the size budget`);
  });

  it('narrows the cells of a row too wide for the budget on its own', () => {
    const columns = Array.from({ length: 300 }, (_, index) => `c${index}`);
    const wide = result(columns, [columns.map(() => 'y'.repeat(2000)), columns.map(() => 'z'.repeat(2000))]);
    const fitted = fitToBudget(wide, 60_000, render);
    expect(renderedSize(fitted)).toBeLessThanOrEqual(60_000);
    expect((fitted.structured.rows as unknown[][])[0]).toHaveLength(300);
    expect(fitted.text).toMatch(/long text values? shortened/);
    expect(fitted.text).toContain('… [cut to fit the size budget]');
  });

  it('leaves out trailing columns when even narrowed cells do not fit, and says how many', () => {
    const columns = Array.from({ length: 2000 }, (_, index) => `${'column '.repeat(40)}${index}`);
    const wide = result(columns, [columns.map(() => 'w'.repeat(2000))]);
    const fitted = fitToBudget(wide, 60_000, render);
    expect(renderedSize(fitted)).toBeLessThanOrEqual(60_000);
    const omitted = fitted.structured.omittedColumns as number;
    expect(omitted).toBeGreaterThan(0);
    expect((fitted.structured.columns as string[]).length + omitted).toBe(2000);
    expect((fitted.structured.rows as unknown[][])[0]).toHaveLength(2000 - omitted);
    expect(fitted.text).toContain(`${omitted.toLocaleString('en-US')} trailing columns left out`);
  });
});
