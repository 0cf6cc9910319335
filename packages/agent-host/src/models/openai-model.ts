import { HostError } from '../errors.js';
import { translateSchema } from '../registry/translate-schema.js';
import { type ContentPart, type Message, parseArguments, partsText, type ToolCall } from './messages.js';
import { defaultMaxTokens, type Model, type ModelRequest, type ModelResponse } from './model.js';
import { postToProvider } from './provider-request.js';
import { readServerSentEvents } from './server-sent-events.js';

/** How to reach an OpenAI-compatible Chat Completions API (OpenAI, Ollama, vLLM, llama.cpp, LM Studio). */
export interface OpenAIModelOptions {
  /** The model name, e.g. `gpt-4o-mini` or `llama3.1`. */
  model: string;
  /** The API's base URL, ending before `/chat/completions` (default `https://api.openai.com/v1`). */
  baseUrl?: string;
  /** The key sent as a bearer token; local servers often need none. */
  apiKey?: string;
  /** Retries after 429 and 5xx (default 3). */
  maxRetries?: number;
  /** First retry delay without Retry-After (default 500 ms). */
  initialRetryDelayMs?: number;
}

type WireMessage = Record<string, unknown>;

function imageUrl(part: Extract<ContentPart, { type: 'image' }>) {
  return { type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } };
}

function userContent(parts: ContentPart[]): string | unknown[] {
  if (parts.every((part) => part.type === 'text')) return partsText(parts);
  return parts.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : imageUrl(part)));
}

/** The conversation in Chat Completions form. Tool messages take text only, so images follow in a user message. */
export function toOpenAIMessages(system: string | undefined, messages: Message[]): WireMessage[] {
  const wire: WireMessage[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (message.role === 'user') {
      wire.push({ role: 'user', content: userContent(message.content) });
    } else if (message.role === 'assistant') {
      // An empty answer (no text, no calls) is refused by some servers and says nothing anyway.
      if (!message.text && message.toolCalls.length === 0) continue;
      wire.push({
        role: 'assistant',
        content: message.text || null,
        ...(message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.invalidArguments ?? JSON.stringify(call.arguments) },
              })),
            }
          : {}),
      });
    } else {
      const images: Array<Extract<ContentPart, { type: 'image' }>> = [];
      for (const result of message.results) {
        const resultImages = result.content.filter((part) => part.type === 'image');
        images.push(...resultImages);
        const text = partsText(result.content);
        const note = resultImages.length > 0 ? `\n[${resultImages.length} image(s) attached in the next message]` : '';
        wire.push({ role: 'tool', tool_call_id: result.callId, content: `${text}${note}` || '(no output)' });
      }
      if (images.length > 0) {
        wire.push({
          role: 'user',
          content: [{ type: 'text', text: 'Images returned by the tools:' }, ...images.map(imageUrl)],
        });
      }
    }
  }
  return wire;
}

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface Chunk {
  choices?: Array<{ delta?: { content?: string | null; tool_calls?: ChunkToolCall[] }; finish_reason?: string | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

/** A model behind an OpenAI-compatible Chat Completions API, streamed. */
export function createOpenAIModel(options: OpenAIModelOptions): Model {
  const baseUrl = (options.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const label = `OpenAI-compatible API at ${baseUrl}`;
  const officialApi = new URL(baseUrl).hostname === 'api.openai.com';
  return {
    provider: 'openai',
    name: options.model,
    async complete(request: ModelRequest, completeOptions = {}): Promise<ModelResponse> {
      const body = {
        model: options.model,
        stream: true,
        stream_options: { include_usage: true },
        // OpenAI's own API wants max_completion_tokens (its reasoning models refuse max_tokens); compatible servers
        // such as Ollama, vLLM and llama.cpp know max_tokens.
        [officialApi ? 'max_completion_tokens' : 'max_tokens']: request.maxTokens ?? defaultMaxTokens,
        messages: toOpenAIMessages(request.system, request.messages),
        ...(request.tools.length > 0
          ? {
              tools: request.tools.map((tool) => ({
                type: 'function',
                function: {
                  name: tool.name,
                  description: tool.description,
                  parameters: translateSchema(tool.inputSchema, 'openai'),
                },
              })),
              tool_choice: request.toolChoice ?? 'auto',
            }
          : {}),
      };
      const stream = await postToProvider({
        label,
        keyVariable: 'OPENAI_API_KEY',
        url: `${baseUrl}/chat/completions`,
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        body,
        ...(completeOptions.signal ? { signal: completeOptions.signal } : {}),
        ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
        ...(options.initialRetryDelayMs !== undefined ? { initialRetryDelayMs: options.initialRetryDelayMs } : {}),
      });

      let text = '';
      let stopReason = 'stop';
      const usage = { inputTokens: 0, outputTokens: 0 };
      // Calls arrive as fragments keyed by index: the first carries id and name, later ones pieces of the arguments.
      const calls = new Map<number, { id: string; name: string; arguments: string }>();
      for await (const event of readServerSentEvents(stream)) {
        if (event.data === '[DONE]') break;
        let chunk: Chunk;
        try {
          chunk = JSON.parse(event.data) as Chunk;
        } catch {
          throw new HostError('MODEL_RESPONSE_INVALID', `${label} streamed a chunk that is not JSON.`);
        }
        if (chunk.error) throw new HostError('MODEL_REQUEST_FAILED', `${label} failed: ${chunk.error.message}`);
        if (chunk.usage) {
          usage.inputTokens = chunk.usage.prompt_tokens ?? usage.inputTokens;
          usage.outputTokens = chunk.usage.completion_tokens ?? usage.outputTokens;
        }
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        if (choice.finish_reason) stopReason = choice.finish_reason;
        const delta = choice.delta;
        if (delta?.content) {
          text += delta.content;
          completeOptions.onTextDelta?.(delta.content);
        }
        for (const fragment of delta?.tool_calls ?? []) {
          const index = fragment.index ?? calls.size;
          const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
          if (fragment.id) call.id = fragment.id;
          if (fragment.function?.name) call.name += fragment.function.name;
          if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
          calls.set(index, call);
        }
      }
      const toolCalls: ToolCall[] = [...calls.entries()]
        .sort(([left], [right]) => left - right)
        .map(([index, call]) => ({
          id: call.id || `call_${index}`,
          name: call.name,
          ...parseArguments(call.arguments),
        }));
      return { text, toolCalls, stopReason, usage };
    },
  };
}
