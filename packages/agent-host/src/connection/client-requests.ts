import { type Client, type ClientCapabilities, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { errorMessage } from '../errors.js';

/** One message of a sampling request, reduced to what a model can take. */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  /** The text of the message (images and audio are described, not sent). */
  text: string;
}

/** A server's request for a completion from the host's model. */
export interface SamplingRequest {
  /** The server asking. */
  server: string;
  messages: SamplingMessage[];
  systemPrompt?: string;
  maxTokens: number;
}

/** A form the server wants the user to fill in: a message and a flat JSON Schema of primitive fields. */
export interface ElicitationRequest {
  server: string;
  message: string;
  schema: { properties?: Record<string, Record<string, unknown>>; required?: string[] };
}

/** The user's answer to a form. */
export type ElicitationAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** A root directory offered to servers. */
export interface RootEntry {
  /** A `file://` URI. */
  uri: string;
  name?: string;
}

/** How the host answers requests that servers send to it. */
export interface ClientRequestHandlers {
  /** The roots offered to the server; absent means no roots capability (the server keeps its own directories). */
  roots?(): RootEntry[];
  /** Answers a sampling request with a completion, or throws to refuse; absent means no sampling capability. */
  sample?(request: SamplingRequest): Promise<{ text: string; model: string }>;
  /** Asks the user to fill in a form; absent means no elicitation capability. */
  elicit?(request: ElicitationRequest): Promise<ElicitationAnswer>;
}

/** The capabilities the host declares, given which handlers exist. */
export function clientCapabilities(handlers: ClientRequestHandlers): ClientCapabilities {
  return {
    ...(handlers.roots ? { roots: { listChanged: true } } : {}),
    ...(handlers.sample ? { sampling: {} } : {}),
    ...(handlers.elicit ? { elicitation: { form: { applyDefaults: true } } } : {}),
  };
}

function describeContent(block: { type: string; text?: string; mimeType?: string }): string {
  if (block.type === 'text') return block.text ?? '';
  return `[${block.type}${block.mimeType ? ` ${block.mimeType}` : ''} omitted]`;
}

/**
 * Installs the handlers for roots, sampling and elicitation requests on one server's client. They answer both a
 * legacy server's requests and the requests a modern server embeds in an `input_required` result.
 */
export function installClientRequestHandlers(client: Client, server: string, handlers: ClientRequestHandlers): void {
  const roots = handlers.roots;
  if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots() }));

  const sample = handlers.sample;
  if (sample) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const messages = request.params.messages.map((message) => {
        const blocks = Array.isArray(message.content) ? message.content : [message.content];
        return {
          role: message.role,
          text: blocks.map((block) => describeContent(block as { type: string; text?: string })).join('\n'),
        };
      });
      let answer: { text: string; model: string };
      try {
        answer = await sample({
          server,
          messages,
          maxTokens: request.params.maxTokens,
          ...(request.params.systemPrompt ? { systemPrompt: request.params.systemPrompt } : {}),
        });
      } catch (error) {
        // -1 is what the spec suggests for a user who rejected the request.
        throw new ProtocolError(-1, errorMessage(error));
      }
      return {
        role: 'assistant',
        content: { type: 'text', text: answer.text },
        model: answer.model,
        stopReason: 'endTurn',
      };
    });
  }

  const elicit = handlers.elicit;
  if (elicit) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params;
      if (!('requestedSchema' in params)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'This client supports form elicitation only.');
      }
      const answer = await elicit({
        server,
        message: params.message,
        schema: params.requestedSchema as ElicitationRequest['schema'],
      });
      return answer;
    });
  }
}
