import { ProtocolError } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

/** Awaits a request that must fail with a JSON-RPC error, and returns that error. */
export async function mcpErrorOf(promise: Promise<unknown>): Promise<ProtocolError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}
