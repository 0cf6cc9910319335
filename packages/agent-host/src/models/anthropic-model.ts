import { HostError } from '../errors.js';
import { translateSchema } from '../registry/translate-schema.js';
import { type ContentPart, type Message, parseArguments, type ToolCall } from './messages.js';
import { defaultMaxTokens, type Model, type ModelRequest, type ModelResponse } from './model.js';
import { postToProvider } from './provider-request.js';
import { readServerSentEvents } from './server-sent-events.js';

/** How to reach the Anthropic Messages API. */
export interface AnthropicModelOptions {
  /** The model name, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** The API's base URL, ending before `/v1/messages` (default `https://api.anthropic.com`). */
  baseUrl?: string;
  apiKey?: string;
  /** Retries after 429, 5xx and 529 (default 3). */
  maxRetries?: number;
  /** First retry delay without Retry-After (default 500 ms). */
  initialRetryDelayMs?: number;
}

type Block = Record<string, unknown>;

function blocks(parts: ContentPart[]): Block[] {
  return parts
    .filter((part) => part.type !== 'text' || part.text !== '')
    .map((part) =>
      part.type === 'text'
        ? { type: 'text', text: part.text }
        : { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } },
    );
}

/** The conversation in Messages form: tool results are user blocks (images included), same roles merged. */
export function toAnthropicMessages(messages: Message[]): Array<{ role: 'user' | 'assistant'; content: Block[] }> {
  const wire: Array<{ role: 'user' | 'assistant'; content: Block[] }> = [];
  const push = (role: 'user' | 'assistant', content: Block[]) => {
    const last = wire.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else wire.push({ role, content });
  };
  for (const message of messages) {
    if (message.role === 'user') {
      push('user', blocks(message.content));
    } else if (message.role === 'assistant') {
      // An empty answer (no text, no calls) would be refused as an empty message; it says nothing anyway.
      if (!message.text && message.toolCalls.length === 0) continue;
      push('assistant', [
        ...(message.text ? [{ type: 'text', text: message.text }] : []),
        ...message.toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments })),
      ]);
    } else {
      push(
        'user',
        message.results.map((result) => {
          const content = blocks(result.content);
          return {
            type: 'tool_result',
            tool_use_id: result.callId,
            content: content.length > 0 ? content : [{ type: 'text', text: '(no output)' }],
            ...(result.isError ? { is_error: true } : {}),
          };
        }),
      );
    }
  }
  return wire;
}

interface StreamEvent {
  type: string;
  index?: number;
  message?: { usage?: { input_tokens?: number; output_tokens?: number } };
  content_block?: { type: string; id?: string; name?: string; text?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string };
  usage?: { output_tokens?: number; input_tokens?: number };
  error?: { type?: string; message?: string };
}

/** A model behind the Anthropic Messages API, streamed. */
export function createAnthropicModel(options: AnthropicModelOptions): Model {
  const baseUrl = (options.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '');
  const label = `Anthropic API at ${baseUrl}`;
  return {
    provider: 'anthropic',
    name: options.model,
    async complete(request: ModelRequest, completeOptions = {}): Promise<ModelResponse> {
      const body = {
        model: options.model,
        stream: true,
        max_tokens: request.maxTokens ?? defaultMaxTokens,
        ...(request.system ? { system: request.system } : {}),
        messages: toAnthropicMessages(request.messages),
        ...(request.tools.length > 0
          ? {
              tools: request.tools.map((tool) => ({
                name: tool.name,
                description: tool.description,
                input_schema: translateSchema(tool.inputSchema, 'anthropic'),
              })),
              tool_choice: { type: request.toolChoice ?? 'auto' },
            }
          : {}),
      };
      const stream = await postToProvider({
        label,
        keyVariable: 'ANTHROPIC_API_KEY',
        url: `${baseUrl}/v1/messages`,
        headers: { 'anthropic-version': '2023-06-01', ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}) },
        body,
        ...(completeOptions.signal ? { signal: completeOptions.signal } : {}),
        ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
        ...(options.initialRetryDelayMs !== undefined ? { initialRetryDelayMs: options.initialRetryDelayMs } : {}),
      });

      let text = '';
      let stopReason = 'end_turn';
      const usage = { inputTokens: 0, outputTokens: 0 };
      const calls = new Map<number, { id: string; name: string; json: string }>();
      for await (const event of readServerSentEvents(stream)) {
        let data: StreamEvent;
        try {
          data = JSON.parse(event.data) as StreamEvent;
        } catch {
          throw new HostError('MODEL_RESPONSE_INVALID', `${label} streamed an event that is not JSON.`);
        }
        if (data.type === 'error') {
          throw new HostError('MODEL_REQUEST_FAILED', `${label} failed mid-stream: ${data.error?.message ?? 'error'}`);
        }
        if (data.type === 'message_start') {
          usage.inputTokens = data.message?.usage?.input_tokens ?? 0;
          usage.outputTokens = data.message?.usage?.output_tokens ?? 0;
        } else if (data.type === 'content_block_start' && data.content_block?.type === 'tool_use') {
          calls.set(data.index ?? calls.size, {
            id: data.content_block.id ?? '',
            name: data.content_block.name ?? '',
            json: '',
          });
        } else if (data.type === 'content_block_delta') {
          if (data.delta?.type === 'text_delta' && data.delta.text) {
            text += data.delta.text;
            completeOptions.onTextDelta?.(data.delta.text);
          } else if (data.delta?.type === 'input_json_delta') {
            const call = calls.get(data.index ?? -1);
            if (call) call.json += data.delta.partial_json ?? '';
          }
        } else if (data.type === 'message_delta') {
          if (data.delta?.stop_reason) stopReason = data.delta.stop_reason;
          if (data.usage?.output_tokens !== undefined) usage.outputTokens = data.usage.output_tokens;
        } else if (data.type === 'message_stop') {
          break;
        }
      }
      const toolCalls: ToolCall[] = [...calls.entries()]
        .sort(([left], [right]) => left - right)
        .map(([index, call]) => ({ id: call.id || `toolu_${index}`, name: call.name, ...parseArguments(call.json) }));
      return { text, toolCalls, stopReason, usage };
    },
  };
}
