import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type ElicitRequestFormParams,
  ErrorCode,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ClientInfo, ElicitOutcome, RequestContext, SampleRequest, ToolContext } from './context.js';
import { ToolError } from './errors.js';
import { describeIssues, objectJsonSchema } from './json-schema.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The SDK's complaint about an elicitation answer that does not match the form, made readable; else undefined. */
function schemaMismatch(error: unknown): string | undefined {
  if (!(error instanceof McpError) || error.code !== ErrorCode.InvalidParams) return undefined;
  const match = /does not match requested schema:\s*(.*)$/s.exec(error.message);
  return match?.[1]?.replace(/\bdata\//g, '').replace(/\//g, '.');
}

/** What a tool context needs from the session it runs in. */
export interface ToolContextSource {
  readonly server: Server;
  clientInfo(): ClientInfo;
}

/**
 * Extends a request's context with what only tools get: progress (sent only with a progress token), sampling and
 * elicitation (related to the call, so that over HTTP they travel on its stream).
 */
export function createToolContext(base: RequestContext, extra: Extra, source: ToolContextSource): ToolContext {
  const progressToken = extra._meta?.progressToken;
  return Object.assign(base, {
    progress: async (done: number, total?: number, message?: string) => {
      if (progressToken === undefined) return;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress: done,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      });
    },
    sample: async (request: SampleRequest) => {
      if (!source.clientInfo().supports('sampling')) {
        throw new ToolError('This client does not support sampling, so the tool cannot ask its model.');
      }
      const params =
        'prompt' in request
          ? {
              messages: [{ role: 'user' as const, content: { type: 'text' as const, text: request.prompt } }],
              maxTokens: request.maxTokens ?? 1000,
              ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
            }
          : request;
      return source.server.createMessage(params, { signal: base.signal, relatedRequestId: extra.requestId });
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
          { signal: base.signal, relatedRequestId: extra.requestId },
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
