import type { ElicitRequestFormParams, Root, Server, ServerContext } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { type AuthIdentity, identityOf } from './auth/identity.js';
import type { AskOptions, ClientInfo, ElicitOutcome, SampleRequest, ToolContext } from './context.js';
import { ToolError } from './errors.js';
import { describeIssues, objectJsonSchema } from './json-schema.js';
import type { Logger } from './logger.js';
import type { ModernAsks } from './rounds/modern-asks.js';
import { samplingParams } from './sampling-params.js';

/** The SDK's complaint about an elicitation answer that does not match the form, made readable; else undefined. */
function schemaMismatch(error: unknown): string | undefined {
  if (!(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.InvalidParams) return undefined;
  const match = /does not match requested schema:\s*(.*)$/s.exec(error.message);
  return match?.[1]?.replace(/\bdata\//g, '').replace(/\//g, '.');
}

/** What a tool context needs from the session it runs in. */
export interface ToolContextSource {
  readonly server: Server;
  /** The client on the other end, as the request shows it. */
  clientInfo(request?: ServerContext): ClientInfo;
  /** The session's roots (a legacy-era context asks the session; a modern one asks within the call). */
  roots(): Promise<Root[] | undefined>;
  /** A logger for one request: stderr, and the client when it asked for logs (related to the request). */
  requestLogger(request: ServerContext): Logger;
}

/**
 * Progress of a call: sent only when the client asked for it with a token, related to the call's request, and only
 * when it moved forward (the protocol asks each notification's value to increase; a handler that reports a phase's
 * count twice, or starts a count again, sends nothing for it).
 */
function progressOf(context: ServerContext): ToolContext['progress'] {
  const progressToken = context.mcpReq._meta?.progressToken;
  let last = Number.NEGATIVE_INFINITY;
  return async (done, total, message) => {
    if (progressToken === undefined || !(done > last)) return;
    last = done;
    await context.mcpReq.notify({
      method: 'notifications/progress',
      params: {
        progressToken,
        progress: done,
        ...(total !== undefined ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      },
    });
  };
}

/** How a modern-era call asks: through the round engine, with the round's signal. */
interface RoundAsking {
  asks: ModernAsks;
  signal: () => AbortSignal;
}

/**
 * What a tool handler (or a prompt's render) receives, built on every call and read by few: the logger, the client and
 * each function (`progress`, `sample`, `elicit`, `roots`) are made when first read, so a call that reads none of them
 * costs one small object (docs/decisions/0011-kit-per-call-path.md). Each function is handed out bound to the call, so
 * it can be taken off the context (`const { progress } = context`).
 *
 * In the legacy era sampling and elicitation are server→client requests related to the call (over HTTP they travel on
 * its stream) and roots come from the session. In the modern era elicitation, sampling and roots go through the round
 * engine (each ask becomes an input request of an `input_required` result; the retry replays the handler), and the
 * signal is the round's, also aborted when the round ends asking.
 */
class CallContext implements ToolContext {
  declare sessionId?: string;
  declare auth?: AuthIdentity;
  readonly #source: ToolContextSource;
  readonly #request: ServerContext;
  readonly #round: RoundAsking | undefined;
  #log: Logger | undefined;
  #client: ClientInfo | undefined;
  #progress: ToolContext['progress'] | undefined;
  #sample: ToolContext['sample'] | undefined;
  #elicit: ToolContext['elicit'] | undefined;
  #roots: ToolContext['roots'] | undefined;

  constructor(source: ToolContextSource, request: ServerContext, round?: RoundAsking) {
    this.#source = source;
    this.#request = request;
    this.#round = round;
    if (request.sessionId) this.sessionId = request.sessionId;
    if (request.http?.authInfo) this.auth = identityOf(request.http.authInfo);
  }

  /** Aborted when the client cancels the request, the session ends, or the server shuts down (the SDK's signal). */
  get signal(): AbortSignal {
    return this.#round ? this.#round.signal() : this.#request.mcpReq.signal;
  }

  /** See {@link cancelledBeforeItRuns}. */
  static cancelledBeforeItRuns(context: ToolContext): boolean {
    return #request in context ? context.#request.mcpReq.signal.aborted : context.signal.aborted;
  }

  get log(): Logger {
    this.#log ??= this.#source.requestLogger(this.#request);
    return this.#log;
  }

  get client(): ClientInfo {
    this.#client ??= this.#source.clientInfo(this.#request);
    return this.#client;
  }

  get progress(): ToolContext['progress'] {
    this.#progress ??= progressOf(this.#request);
    return this.#progress;
  }

  get roots(): ToolContext['roots'] {
    const asks = this.#round?.asks;
    this.#roots ??= asks ? (options?: AskOptions) => asks.roots(options) : () => this.#source.roots();
    return this.#roots;
  }

  get sample(): ToolContext['sample'] {
    const asks = this.#round?.asks;
    this.#sample ??= asks
      ? (request: SampleRequest, options?: AskOptions) => asks.sample(request, options)
      : (request: SampleRequest) => this.#sampleAsServer(request);
    return this.#sample;
  }

  get elicit(): ToolContext['elicit'] {
    const asks = this.#round?.asks;
    this.#elicit ??= asks
      ? <Schema extends z.ZodObject>(message: string, schema: Schema, options?: AskOptions) =>
          asks.elicit(message, schema, options)
      : <Schema extends z.ZodObject>(message: string, schema: Schema) => this.#elicitAsServer(message, schema);
    return this.#elicit;
  }

  async #sampleAsServer(request: SampleRequest) {
    if (!this.#source.clientInfo().supports('sampling')) {
      throw new ToolError('This client does not support sampling, so the tool cannot ask its model.');
    }
    return this.#source.server.createMessage(samplingParams(request), {
      signal: this.signal,
      relatedRequestId: this.#request.mcpReq.id,
    });
  }

  async #elicitAsServer<Schema extends z.ZodObject>(
    message: string,
    schema: Schema,
  ): Promise<ElicitOutcome<z.output<Schema>>> {
    if (!this.#source.clientInfo().supports('elicitation')) {
      throw new ToolError('This client does not support elicitation, so the tool cannot ask the user.');
    }
    const requestedSchema = objectJsonSchema(schema, 'input') as ElicitRequestFormParams['requestedSchema'];
    const answer = await this.#source.server
      .elicitInput(
        { mode: 'form', message, requestedSchema },
        { signal: this.signal, relatedRequestId: this.#request.mcpReq.id },
      )
      .catch((error: unknown) => {
        // The SDK checks an accepted answer against the JSON Schema first; its verdict is for the model too.
        const detail = schemaMismatch(error);
        if (detail === undefined) throw error;
        throw new ToolError(`The answer to the form was not valid: ${detail}.`);
      });
    if (answer.action !== 'accept') return { action: answer.action };
    const parsed = schema.safeParse(answer.content ?? {});
    if (!parsed.success) throw new ToolError(`The answer to the form was not valid: ${describeIssues(parsed.error)}.`);
    return { action: 'accept', content: parsed.data };
  }
}

/**
 * Whether the call was cancelled before its handler runs, without making a round's signal: in the modern era that
 * signal is an AbortController and a listener made when first read (most handlers never read it), and until the
 * handler runs it is aborted exactly when the request's is (only the handler's asks abort it otherwise).
 */
export const cancelledBeforeItRuns: (context: ToolContext) => boolean = CallContext.cancelledBeforeItRuns;

/** The context of a legacy-era tool call or prompt render. */
export function createToolContext(source: ToolContextSource, request: ServerContext): ToolContext {
  return new CallContext(source, request);
}

/** The context of a modern-era tool call or prompt render, in a round of the round engine. */
export function createModernToolContext(
  source: ToolContextSource,
  request: ServerContext,
  asks: ModernAsks,
  roundSignal: () => AbortSignal,
): ToolContext {
  return new CallContext(source, request, { asks, signal: roundSignal });
}
