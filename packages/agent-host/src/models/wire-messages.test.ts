import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from './anthropic-model.js';
import type { Message } from './messages.js';
import { toOpenAIMessages } from './openai-model.js';

const conversation: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'first' }] },
  { role: 'assistant', text: '', toolCalls: [] },
  { role: 'user', content: [{ type: 'text', text: 'second' }] },
  {
    role: 'assistant',
    text: '',
    toolCalls: [{ id: 'c1', name: 'files__read', arguments: {}, invalidArguments: '{"path":' }],
  },
  { role: 'tool', results: [{ callId: 'c1', name: 'files__read', content: [], isError: true }] },
];

describe('the wire forms of a conversation', () => {
  it('Anthropic: drops empty answers, merges neighbouring user turns, never sends empty content', () => {
    expect(toAnthropicMessages(conversation)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'files__read', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: '(no output)' }], is_error: true },
        ],
      },
    ]);
  });

  it('OpenAI: drops empty answers, sends the raw text of arguments that were not JSON, and a system message', () => {
    expect(toOpenAIMessages('Be brief.', conversation)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'files__read', arguments: '{"path":' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '(no output)' },
    ]);
  });
});
