import type { ServerResult } from '@modelcontextprotocol/server';

/**
 * How a request ended: answered, answered with a tool's `isError` result, suspended to ask the client for input (a
 * 2026-07-28 round), or failed with a JSON-RPC error.
 */
export type Outcome = 'ok' | 'tool-error' | 'input-required' | 'error';

/** The outcome of a result. */
export function outcomeOf(result: ServerResult): Outcome {
  const fields = result as { isError?: unknown; resultType?: unknown };
  if (fields.isError === true) return 'tool-error';
  if (fields.resultType === 'input_required') return 'input-required';
  return 'ok';
}
