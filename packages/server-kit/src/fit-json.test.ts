import { describe, expect, it } from 'vitest';
import { fitJson } from './fit-json.js';

describe('fitJson', () => {
  it('returns a value that fits as it is', () => {
    const value = { a: [1, 2, 3] };
    expect(fitJson(value, 100)).toEqual({ value, size: JSON.stringify(value).length, cuts: [] });
  });

  it('keeps the first items of an array and every key of the object', () => {
    const rows = Array.from({ length: 1000 }, (_, index) => ({ id: index, name: `row ${index}` }));
    const fitted = fitJson({ columns: ['id', 'name'], rows, rowCount: 1000 }, 500);
    expect(fitted).toBeDefined();
    expect(JSON.stringify(fitted?.value).length).toBe(fitted?.size);
    expect(fitted?.size).toBeLessThanOrEqual(500);
    expect(Object.keys(fitted?.value ?? {})).toEqual(['columns', 'rows', 'rowCount']);
    const kept = fitted?.value.rows as typeof rows;
    expect(kept.length).toBeGreaterThan(5);
    expect(kept).toEqual(rows.slice(0, kept.length));
    expect(fitted?.cuts).toEqual([`rows: kept ${kept.length} of 1,000 items`]);
  });

  it('cuts one huge string inside a single row, counting escapes, without splitting a surrogate pair', () => {
    const cell = `${'"'.repeat(10)}${'😀'.repeat(100_000)}`;
    const fitted = fitJson({ rows: [[1, cell]] }, 1000);
    expect(fitted?.size).toBeLessThanOrEqual(1000);
    expect(JSON.stringify(fitted?.value).length).toBe(fitted?.size);
    const kept = (fitted?.value.rows as unknown[][] | undefined)?.[0]?.[1] as string;
    expect(cell.startsWith(kept)).toBe(true);
    expect(kept.length).toBeGreaterThan(900);
    expect(kept.charCodeAt(kept.length - 1)).toBe(0xde00);
    expect(fitted?.cuts).toEqual([`rows[0][1]: kept ${kept.length.toLocaleString('en-US')} of 200,010 characters`]);
  });

  it('gives later keys their share: a large first field does not starve the ones after it', () => {
    const fitted = fitJson({ big: 'x'.repeat(10_000), small: 'kept whole', count: 3 }, 200);
    expect(fitted?.value.small).toBe('kept whole');
    expect(fitted?.value.count).toBe(3);
    expect(fitted?.size).toBeLessThanOrEqual(200);
  });

  it('is undefined when even the shape (keys, numbers) does not fit', () => {
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`key${index}`, index]));
    expect(fitJson(wide, 50)).toBeUndefined();
  });

  it('cuts four megabytes quickly', () => {
    const rows = Array.from({ length: 40_000 }, (_, index) => ({ id: index, text: 'y'.repeat(100) }));
    const started = performance.now();
    const fitted = fitJson({ rows }, 60_000);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(fitted?.size).toBeLessThanOrEqual(60_000);
    expect(fitted?.size).toBeGreaterThan(59_000);
  });
});
