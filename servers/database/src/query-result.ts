import type { QueryRenderLimits, QueryResult, SerializedQueryResult } from './engines/engine.js';
import { fitToBudget, type RenderedResult } from './result-budget.js';
import { queryResultText } from './result-text.js';

/** How a query's tool result is rendered: the budget and row cap, and the rows the call asked for. */
export interface QueryRenderOptions extends QueryRenderLimits {
  requested: number;
}

function render(shown: QueryResult, options: QueryRenderOptions): RenderedResult {
  return {
    text: queryResultText(shown, options),
    structured: {
      columns: shown.columns,
      rows: shown.rows,
      rowCount: shown.rows.length,
      ...(shown.truncated ? { truncated: shown.truncated } : {}),
      ...(shown.totalRows !== undefined ? { totalRows: shown.totalRows } : {}),
      ...(shown.totalRowsAtLeast !== undefined ? { totalRowsAtLeast: shown.totalRowsAtLeast } : {}),
      ...(shown.omittedColumns ? { omittedColumns: shown.omittedColumns } : {}),
    },
  };
}

/** The query tool's result: the same rows in the text and the structured content, together within the budget. */
export function renderQueryResult(result: QueryResult, options: QueryRenderOptions): RenderedResult {
  return fitToBudget(result, options.budget, (shown) => render(shown, options));
}

/**
 * The query tool's result with its structured content serialized, each once in the common case (the whole result
 * fits); otherwise the budget's cuts of `renderQueryResult`. A worker process builds it so that the server only
 * passes it on.
 */
export function serializeQueryResult(result: QueryResult, options: QueryRenderOptions): SerializedQueryResult {
  const whole = render(result, options);
  const structuredJson = JSON.stringify(whole.structured);
  if (whole.text.length + structuredJson.length <= options.budget) return { text: whole.text, structuredJson };
  const fitted = renderQueryResult(result, options);
  return { text: fitted.text, structuredJson: JSON.stringify(fitted.structured) };
}
