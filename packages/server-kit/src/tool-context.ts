import type { ElicitRequestFormParams, Server, ServerContext } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { AskOptions, ClientInfo, ElicitOutcome, RequestContext, SampleRequest, ToolContext } from './context.js';
import { ToolError } from './errors.js';
import { describeIssues, objectJsonSchema } from './json-schema.js';
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
  clientInfo(): ClientInfo;
}

/** Progress of a call: sent only when the client asked for it with a token, related to the call's request. */
function progressOf(context: ServerContext): ToolContext['progress'] {
  const progressToken = context.mcpReq._meta?.progressToken;
  return async (done, total, message) => {
    if (progressToken === undefined) return;
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

/**
 * Extends a legacy-era request's context with what only tools get: progress (sent only with a progress token),
 * sampling and elicitation as server→client requests related to the call (over HTTP they travel on its stream).
 */
export function createToolContext(
  base: RequestContext,
  context: ServerContext,
  source: ToolContextSource,
): ToolContext {
  return Object.assign(base, {
    progress: progressOf(context),
    sample: async (request: SampleRequest) => {
      if (!source.clientInfo().supports('sampling')) {
        throw new ToolError('This client does not support sampling, so the tool cannot ask its model.');
      }
      return source.server.createMessage(samplingParams(request), {
        signal: base.signal,
        relatedRequestId: context.mcpReq.id,
      });
    },
    elicit: async <Schema extends z.ZodObject>(
      message: string,
      schema: Schema,
    ): Promise<ElicitOutcome<z.output<Schema>>> => {
      if (!source.clientInfo().supports('elicitation')) {
        throw new ToolError('This client does not support elicitation, so the tool cannot ask the user.');
      }
      const requestedSchema = objectJsonSchema(schema, 'input') as ElicitRequestFormParams['requestedSchema'];
      const answer = await source.server
        .elicitInput(
          { mode: 'form', message, requestedSchema },
          { signal: base.signal, relatedRequestId: context.mcpReq.id },
        )
        .catch((error: unknown) => {
          // The SDK checks an accepted answer against the JSON Schema first; its verdict is for the model too.
          const detail = schemaMismatch(error);
          if (detail === undefined) throw error;
          throw new ToolError(`The answer to the form was not valid: ${detail}.`);
        });
      if (answer.action !== 'accept') return { action: answer.action };
      const parsed = schema.safeParse(answer.content ?? {});
      if (!parsed.success)
        throw new ToolError(`The answer to the form was not valid: ${describeIssues(parsed.error)}.`);
      return { action: 'accept', content: parsed.data };
    },
  });
}

/**
 * Extends a modern-era request's context: progress as in the legacy era, and elicitation, sampling and roots through
 * the round engine (each ask becomes an input request of an `input_required` result; the retry replays the handler).
 */
export function createModernToolContext(base: RequestContext, context: ServerContext, asks: ModernAsks): ToolContext {
  return Object.assign(base, {
    progress: progressOf(context),
    sample: (request: SampleRequest, options?: AskOptions) => asks.sample(request, options),
    elicit: <Schema extends z.ZodObject>(message: string, schema: Schema, options?: AskOptions) =>
      asks.elicit(message, schema, options),
    roots: (options?: AskOptions) => asks.roots(options),
  });
}
