import type { CreateMessageRequestParamsBase, CreateMessageResult, Root } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { AuthIdentity } from './auth/identity.js';
import type { Logger } from './logger.js';

export type { CreateMessageRequestParamsBase, CreateMessageResult, Root };

/** The outcome of asking the user through form elicitation; declining or cancelling is a normal answer. */
export type ElicitOutcome<T> = { action: 'accept'; content: T } | { action: 'decline' } | { action: 'cancel' };

/** A request for the client's model: the SDK's full parameters, or a single user prompt. */
export type SampleRequest =
  | CreateMessageRequestParamsBase
  | { prompt: string; maxTokens?: number; systemPrompt?: string };

/**
 * Options of one question to the client. In the 2026-07-28 era a question travels as an input request of an
 * `input_required` result under its key (by default `elicit-1`, `sample-2`, … in the order the handler asks).
 */
export interface AskOptions {
  /** The key of the input request (2026-07-28 era only; ignored for a 2025-11-25 client). */
  key?: string;
}

/** What the connected client is and can do. */
export interface ClientInfo {
  name?: string;
  version?: string;
  /** Whether the client declared the capability at initialization. */
  supports(capability: 'sampling' | 'elicitation' | 'roots'): boolean;
}

/** What every handler receives besides its arguments. */
export interface RequestContext {
  /** Aborted when the client cancels the request, the session ends, or the server shuts down. */
  signal: AbortSignal;
  /** Logs to stderr and, when the client set a level, as MCP logging notifications to this session. */
  log: Logger;
  /** The client on the other end of this session. */
  client: ClientInfo;
  /** The transport's session id, when the transport has sessions (Streamable HTTP). */
  sessionId?: string;
  /** The verified caller, when the server runs over HTTP as a protected resource (`serveHttp({ auth })`). */
  auth?: AuthIdentity;
  /**
   * The client's roots (kept up to date on change notifications); undefined when the client offers none. Rejects with
   * a ToolError (a sentence for the model) when a client that offers roots fails to list them.
   */
  roots(options?: AskOptions): Promise<Root[] | undefined>;
}

/** What a prompt's render receives besides its arguments: it may ask the user or the client's model too. */
export type PromptContext = RequestContext & Pick<ToolContext, 'elicit' | 'sample'>;

/** What a tool handler receives besides its arguments. */
export interface ToolContext extends RequestContext {
  /**
   * Reports progress; sent only when the client asked for progress with a token, and only when `done` is greater
   * than the last value sent for the call (the protocol asks every notification's value to increase).
   */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** Asks the client's model for a completion (sampling). Throws a ToolError when the client cannot sample. */
  sample(request: SampleRequest, options?: AskOptions): Promise<CreateMessageResult>;
  /** Asks the user for input with a form; the answer is checked against `schema`. */
  elicit<Schema extends z.ZodObject>(
    message: string,
    schema: Schema,
    options?: AskOptions,
  ): Promise<ElicitOutcome<z.output<Schema>>>;
}
