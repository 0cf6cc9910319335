import { describe, expect, it } from 'vitest';
import type { QueryResult } from './engines/engine.js';
import { renderQueryResult, serializeQueryResult } from './query-result.js';

function result(rows: number, width: number): QueryResult {
  return {
    columns: ['id', 'note'],
    rows: Array.from({ length: rows }, (_, index) => [index, 'x'.repeat(width)]),
    totalRows: rows,
    shortenedCells: 0,
    elapsedMs: 1.2,
  };
}

describe('serializeQueryResult', () => {
  it('is the rendered result with its structured content as JSON, whether it fits whole or is cut', () => {
    const options = { budget: 4000, maxRows: 500, requested: 500 };
    for (const candidate of [result(3, 10), result(200, 10), result(2, 5000)]) {
      const rendered = renderQueryResult(candidate, options);
      const serialized = serializeQueryResult(candidate, options);
      expect(serialized.text).toBe(rendered.text);
      expect(JSON.parse(serialized.structuredJson)).toEqual(rendered.structured);
      expect(serialized.text.length + serialized.structuredJson.length).toBeLessThanOrEqual(options.budget);
    }
  });
});
