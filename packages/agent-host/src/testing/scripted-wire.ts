import type { ScriptStep } from './script.js';

/** A reply already decided: text and tool calls with ids, and rough token counts. */
export interface PlannedReply {
  text: string;
  toolCalls: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  inputTokens: number;
  outputTokens: number;
}

type ErrorStep = Extract<ScriptStep, { error: unknown }>['error'];

/** Splits a string in up to three pieces, so that clients must assemble fragments as real streams require. */
function fragments(text: string): string[] {
  if (text.length < 3) return [text];
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
}

function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/** The reply as an OpenAI Chat Completions stream (`chat.completion.chunk` events, then `[DONE]`). */
export function openAIStream(reply: PlannedReply, model: string): string[] {
  const base = { id: `chatcmpl-scripted`, object: 'chat.completion.chunk', created: 0, model };
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const events = [chunk({ role: 'assistant', content: '' })];
  for (const piece of reply.text ? fragments(reply.text) : []) events.push(chunk({ content: piece }));
  reply.toolCalls.forEach((call, index) => {
    events.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of fragments(JSON.stringify(call.arguments))) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(chunk({}, reply.toolCalls.length > 0 ? 'tool_calls' : 'stop'));
  events.push(
    sse({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: reply.inputTokens,
        completion_tokens: reply.outputTokens,
        total_tokens: reply.inputTokens + reply.outputTokens,
      },
    }),
  );
  events.push('data: [DONE]\n\n');
  return events;
}

/** The reply as an Anthropic Messages stream (message_start ... message_stop). */
export function anthropicStream(reply: PlannedReply, model: string): string[] {
  const events = [
    sse(
      {
        type: 'message_start',
        message: {
          id: 'msg_scripted',
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          usage: { input_tokens: reply.inputTokens, output_tokens: 1 },
        },
      },
      'message_start',
    ),
    sse({ type: 'ping' }, 'ping'),
  ];
  let index = 0;
  if (reply.text) {
    events.push(
      sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    );
    for (const piece of fragments(reply.text)) {
      events.push(
        sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }, 'content_block_delta'),
      );
    }
    events.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index += 1;
  }
  for (const call of reply.toolCalls) {
    events.push(
      sse(
        {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        },
        'content_block_start',
      ),
    );
    for (const piece of fragments(JSON.stringify(call.arguments))) {
      events.push(
        sse(
          { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
          'content_block_delta',
        ),
      );
    }
    events.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index += 1;
  }
  events.push(
    sse(
      {
        type: 'message_delta',
        delta: { stop_reason: reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: reply.outputTokens },
      },
      'message_delta',
    ),
  );
  events.push(sse({ type: 'message_stop' }, 'message_stop'));
  return events;
}

/** An error body in the provider's format. */
export function errorBody(format: 'openai' | 'anthropic', error: ErrorStep): string {
  const message = error.message ?? `scripted error ${error.status}`;
  const type = error.status === 429 ? 'rate_limit_error' : error.status >= 500 ? 'api_error' : 'invalid_request_error';
  return JSON.stringify(
    format === 'openai' ? { error: { message, type, code: null } } : { type: 'error', error: { type, message } },
  );
}
