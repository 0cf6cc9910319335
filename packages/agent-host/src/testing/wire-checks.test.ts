import { describe, expect, it } from 'vitest';
import { wireProblems } from './wire-checks.js';

const tool = { name: 'files__read', description: 'Reads.', input_schema: { type: 'object', properties: {} } };

describe('wireProblems', () => {
  it('accepts a valid Anthropic request and finds an unanswered call, a repeated role and a bad tool', () => {
    const valid = {
      model: 'm',
      max_tokens: 10,
      tools: [tool],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'files__read', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [] }] },
      ],
    };
    expect(wireProblems({ format: 'anthropic', body: valid }, { calledToolsListed: true })).toEqual([]);
    const broken = {
      ...valid,
      tools: [tool, { ...tool, name: 'bad name' }],
      messages: [...valid.messages.slice(0, 2), { role: 'assistant', content: [{ type: 'text', text: 'x' }] }],
    };
    expect(wireProblems({ format: 'anthropic', body: broken })).toEqual([
      'tools.1: bad name bad name',
      'messages.1: tool_use t1 has no tool_result next',
      'messages.2: same role twice',
    ]);
  });

  it('finds an OpenAI call without its tool message, and a called tool no longer listed when asked to', () => {
    const body = {
      model: 'm',
      tools: [],
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'files__read', arguments: '{}' } }],
        },
      ],
    };
    expect(wireProblems({ format: 'openai', body })).toEqual(['messages.1: call c1 has no tool message after it']);
    expect(wireProblems({ format: 'openai', body }, { calledToolsListed: true })).toContain(
      'messages.1: files__read is called in the history but not listed',
    );
  });
});
