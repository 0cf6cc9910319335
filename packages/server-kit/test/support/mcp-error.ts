import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** Awaits a request that must fail with a JSON-RPC error, and returns that error. */
export async function mcpErrorOf(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}
