import { ProtocolErrorCode, type ServerResult } from '@modelcontextprotocol/server';
import { RequestError } from '../request-error.js';
import { errorResult } from '../results.js';
import type { MiddlewareRequest } from './middleware.js';

/** How a refusal is answered besides its sentence. */
export interface RefuseOptions {
  /** The JSON-RPC error code for methods other than tools/call (default -32602, invalid params). */
  code?: number;
  /** Data for the JSON-RPC error (a tool's `isError` result carries the sentence only). */
  data?: Record<string, unknown>;
}

/**
 * Answers a request without running it: a tools/call gets an `isError` result whose text is `message` (the model reads
 * it and can act on it); any other method gets a JSON-RPC error. Returns for tools/call and throws otherwise, so a
 * middleware writes `return refuse(request, '...')`.
 */
export function refuse(request: MiddlewareRequest, message: string, options: RefuseOptions = {}): ServerResult {
  if (request.method === 'tools/call') return errorResult(message);
  const error = new RequestError(options.code ?? ProtocolErrorCode.InvalidParams, message);
  if (options.data) Object.assign(error, { data: options.data });
  throw error;
}
