import type { ProtocolEra, ServerResult } from '@modelcontextprotocol/server';
import type { AuthIdentity } from '../auth/identity.js';
import type { ClientInfo } from '../context.js';
import type { AnyPrompt } from '../define-prompt.js';
import type { ResourceDefinition } from '../define-resource.js';
import type { AnyTool } from '../define-tool.js';

/** The requests the middleware chain runs around: every request the kit answers besides logging and subscriptions. */
export type MiddlewareMethod =
  | 'tools/list'
  | 'tools/call'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'prompts/list'
  | 'prompts/get'
  | 'completion/complete';

/** Who sent a request, as far as the server can tell. */
export interface Caller {
  /**
   * A stable key for per-caller state such as rate limits: `subject:<sub>` or `client:<id>` for a verified token,
   * `session:<id>` for an HTTP session, `connection:<n>` for a 2025-11-25 connection without a session id (stdio, in
   * memory), `anonymous` for a 2026-07-28 request without a token (that era has no sessions to tell callers apart).
   */
  key: string;
  /** The transport's session id, when the transport has sessions. */
  sessionId?: string;
  /** The verified token's identity, when the server runs over HTTP as a protected resource. */
  auth?: AuthIdentity;
  /** The client program, as it declared itself. */
  client: ClientInfo;
}

/** A definition a request is about: the tool called, the resource read, the prompt got or completed. */
export type MiddlewareDefinition = AnyTool | ResourceDefinition | AnyPrompt;

/** One request, as middleware sees it. Read-only: a middleware changes the answer, not the request. */
export interface MiddlewareRequest {
  /** The JSON-RPC method. */
  readonly method: MiddlewareMethod;
  /**
   * What the request is about: the tool or prompt name, the resource URI, the prompt name or template a completion
   * refers to; undefined for list calls.
   */
  readonly target: string | undefined;
  /** The arguments of a tool call or prompt, as the client sent them (not yet checked); undefined for other methods. */
  readonly arguments: Readonly<Record<string, unknown>> | undefined;
  /** The registered definition the request is about; undefined for list calls and for a name or URI that is unknown. */
  readonly definition: MiddlewareDefinition | undefined;
  /** The request's params as received (including `_meta`). */
  readonly params: Readonly<Record<string, unknown>>;
  /** Who sent it. */
  readonly caller: Caller;
  /** The protocol era of the request. */
  readonly era: ProtocolEra;
  /** Aborted when the client cancels the request or the server shuts down. */
  readonly signal: AbortSignal;
}

/** Runs the rest of the chain and the kit's own handler; resolves with the answer or rejects with the JSON-RPC error. */
export type Next = () => Promise<ServerResult>;

/**
 * A function around requests. It may look at the request, call `next()` and look at (or replace) the result, catch
 * the error `next()` rejects with, or answer without calling `next()` at all (a result, or `refuse`).
 */
export type Middleware = (request: MiddlewareRequest, next: Next) => ServerResult | Promise<ServerResult>;

/**
 * Runs `chain` around `last`: the first middleware is the outermost. Each `next()` runs the rest of the chain again, so
 * a middleware that calls it twice runs the handler twice.
 */
export function runMiddleware(
  chain: readonly Middleware[],
  request: MiddlewareRequest,
  last: () => ServerResult | Promise<ServerResult>,
): Promise<ServerResult> {
  const dispatch = async (index: number): Promise<ServerResult> => {
    const middleware = chain[index];
    if (middleware === undefined) return last();
    return middleware(request, () => dispatch(index + 1));
  };
  return dispatch(0);
}
