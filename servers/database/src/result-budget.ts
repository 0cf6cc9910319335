import type { CellValue, QueryResult } from './engines/engine.js';

/** A tool result as it is sent: the text the model reads and the structured content beside it. */
export interface RenderedResult {
  text: string;
  structured: Record<string, unknown>;
}

/** Characters a rendered result takes against its budget: its text plus its serialized structured content. */
export function renderedSize(rendered: RenderedResult): number {
  return rendered.text.length + JSON.stringify(rendered.structured).length;
}

/** Characters a cell or a column name keeps at least when a wide row is narrowed to fit. */
const narrowestCell = 16;

const shortenedMark = /… \[(?:[\d,]+ more characters|cut to fit the size budget)\]$/;

function narrowText(value: string, width: number, mark = '… [cut to fit the size budget]'): string {
  if (value.length <= width) return value;
  return `${value.slice(0, width)}${mark}`;
}

/** The result with every text cell and column name shortened to `width` characters. */
function narrowed(result: QueryResult, width: number): QueryResult {
  let shortenedCells = result.shortenedCells;
  const narrowCell = (cell: CellValue): CellValue => {
    if (typeof cell !== 'string' || cell.length <= width) return cell;
    if (!shortenedMark.test(cell)) shortenedCells += 1;
    return narrowText(cell, width);
  };
  const rows = result.rows.map((row) => row.map(narrowCell));
  return { ...result, columns: result.columns.map((column) => narrowText(column, width, '…')), rows, shortenedCells };
}

/** The first `count` rows (and, when given, the first `columns` columns), marked as cut for the budget. */
function cut(result: QueryResult, count: number, columns = result.columns.length): QueryResult {
  if (count >= result.rows.length && columns >= result.columns.length) return result;
  const output: QueryResult = {
    ...result,
    columns: result.columns.slice(0, columns),
    rows: result.rows.slice(0, count).map((row) => row.slice(0, columns)),
  };
  if (count < result.rows.length) output.truncated = 'byte_budget';
  if (columns < result.columns.length) {
    output.omittedColumns = (result.omittedColumns ?? 0) + result.columns.length - columns;
  }
  return output;
}

/** The largest n in [low, high] for which `fits(n)` holds (it holds for every smaller n too), or low - 1. */
function largestFitting(low: number, high: number, fits: (n: number) => boolean): number {
  let best = low - 1;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) {
      best = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

/**
 * Renders a query result so that its text and its structured content together stay within `budget` characters,
 * the same rows in both: trailing rows are left out first; when not even one row fits (a very wide row), long cells
 * and column names are shortened; when that is still too much, trailing columns are left out. Whatever is cut is
 * marked on the result (`truncated`, `shortenedCells`, `omittedColumns`), so `render` can say so and how to get it.
 */
export function fitToBudget(
  result: QueryResult,
  budget: number,
  render: (result: QueryResult) => RenderedResult,
): RenderedResult {
  const fits = (candidate: QueryResult) => renderedSize(render(candidate)) <= budget;
  const whole = render(result);
  if (renderedSize(whole) <= budget) return whole;
  const atLeastOne = Math.min(1, result.rows.length);

  const rows = largestFitting(0, result.rows.length - 1, (count) => fits(cut(result, count)));
  if (rows >= atLeastOne) return render(cut(result, rows));

  const width = Math.max(narrowestCell, Math.floor(budget / 8 / Math.max(1, result.columns.length)));
  const narrow = narrowed(result, width);
  const narrowRows = largestFitting(0, narrow.rows.length, (count) => fits(cut(narrow, count)));
  if (narrowRows >= atLeastOne) return render(cut(narrow, narrowRows));

  const columns = Math.max(
    0,
    largestFitting(0, narrow.columns.length - 1, (count) => fits(cut(narrow, atLeastOne, count))),
  );
  const kept = largestFitting(atLeastOne, narrow.rows.length, (count) => fits(cut(narrow, count, columns)));
  return render(cut(narrow, Math.max(0, kept), columns));
}
