import { ProtocolErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpErrorOf } from '../test/support/mcp-error.js';
import { createServer } from './create-server.js';
import { definePrompt } from './define-prompt.js';
import { KitError, ToolError } from './errors.js';
import { connectTestClient } from './testing/index.js';

const review = definePrompt({
  name: 'review_code',
  title: 'Review code',
  description: 'Asks for a code review.',
  arguments: z.object({
    language: z.string().describe('The programming language'),
    focus: z.string().optional().describe('What to look at first'),
    style: z.enum(['brief', 'thorough']).default('brief'),
  }),
  complete: { language: (value) => ['python', 'perl', 'php', 'rust'].filter((name) => name.startsWith(value)) },
  render: ({ language, focus, style }) =>
    `Review this ${language} code (${style})${focus ? `, looking at ${focus} first` : ''}.`,
});

const conversation = definePrompt({
  name: 'conversation',
  description: 'Two messages.',
  render: () => [
    { role: 'user', content: { type: 'text', text: 'Hi' } },
    { role: 'assistant', content: { type: 'text', text: 'Hello! What can I do?' } },
  ],
});

const described = definePrompt({
  name: 'described',
  description: 'A full result with its own description.',
  render: () => ({ description: 'Rendered', messages: [{ role: 'user', content: { type: 'text', text: 'Go' } }] }),
});

const refusing = definePrompt({
  name: 'refusing',
  description: 'Refuses with a reason.',
  render: () => {
    throw new ToolError('That prompt needs a configured repository.');
  },
});

function serve() {
  return createServer({ name: 't', version: '1', prompts: [review, conversation, described, refusing] });
}

describe('prompts', () => {
  it('lists arguments from the zod schema: name, description, and whether each is required', async () => {
    await using client = await connectTestClient(serve());
    const { prompts } = await client.client.listPrompts();
    expect(prompts[0]).toEqual({
      name: 'review_code',
      title: 'Review code',
      description: 'Asks for a code review.',
      arguments: [
        { name: 'language', description: 'The programming language', required: true },
        { name: 'focus', description: 'What to look at first', required: false },
        { name: 'style', required: false },
      ],
    });
    expect(prompts.map((prompt) => prompt.name)).toEqual(['review_code', 'conversation', 'described', 'refusing']);
    expect(prompts[1]?.arguments).toBeUndefined();
  });

  it('renders a string as one user message, with arguments parsed (defaults applied)', async () => {
    await using client = await connectTestClient(serve());
    const result = await client.client.getPrompt({ name: 'review_code', arguments: { language: 'rust' } });
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Review this rust code (brief).' } },
    ]);
  });

  it('renders a list of messages and a whole result as they are', async () => {
    await using client = await connectTestClient(serve());
    const messages = await client.client.getPrompt({ name: 'conversation' });
    expect(messages.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    const whole = await client.client.getPrompt({ name: 'described' });
    expect(whole.description).toBe('Rendered');
    expect(whole.messages).toHaveLength(1);
  });

  it('answers invalid or missing arguments with -32602 naming what was wrong', async () => {
    await using client = await connectTestClient(serve());
    const missing = await mcpErrorOf(client.client.getPrompt({ name: 'review_code', arguments: {} }));
    expect(missing.code).toBe(ProtocolErrorCode.InvalidParams);
    expect(missing.message).toContain('Invalid arguments for prompt "review_code": language:');
    const wrongEnum = await mcpErrorOf(
      client.client.getPrompt({ name: 'review_code', arguments: { language: 'go', style: 'loud' } }),
    );
    expect(wrongEnum.message).toContain('style:');
  });

  it('answers an unknown prompt and a ToolError from render with -32602', async () => {
    await using client = await connectTestClient(serve());
    const unknown = await mcpErrorOf(client.client.getPrompt({ name: 'nope' }));
    expect(unknown.code).toBe(ProtocolErrorCode.InvalidParams);
    expect(unknown.message).toContain('Unknown prompt: nope');
    const refused = await mcpErrorOf(client.client.getPrompt({ name: 'refusing' }));
    expect(refused.code).toBe(ProtocolErrorCode.InvalidParams);
    expect(refused.message).toContain('That prompt needs a configured repository.');
  });

  it('completes an argument from what was typed', async () => {
    await using client = await connectTestClient(serve());
    const { completion } = await client.client.complete({
      ref: { type: 'ref/prompt', name: 'review_code' },
      argument: { name: 'language', value: 'p' },
    });
    expect(completion).toEqual({ values: ['python', 'perl', 'php'], total: 3, hasMore: false });
    const other = await client.client.complete({
      ref: { type: 'ref/prompt', name: 'review_code' },
      argument: { name: 'focus', value: 'x' },
    });
    expect(other.completion.values).toEqual([]);
  });

  it('tells clients when prompts are added or removed at run time', async () => {
    const server = serve();
    await using client = await connectTestClient(server);
    server.addPrompt(definePrompt({ name: 'late', description: 'Added later.', render: () => 'late' }));
    expect(server.removePrompt('conversation')).toBe(true);
    expect(server.removePrompt('conversation')).toBe(false);
    await expect
      .poll(() => client.notifications.filter((item) => item.method === 'notifications/prompts/list_changed'))
      .toHaveLength(2);
    const { prompts } = await client.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['review_code', 'described', 'refusing', 'late']);
  });

  it('rejects invalid and duplicate prompt names with a typed error', () => {
    expect(() => definePrompt({ name: 'has space', render: () => '' })).toThrow(KitError);
    expect(() => definePrompt({ name: '', render: () => '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_NAME' }),
    );
    expect(() => createServer({ name: 't', version: '1', prompts: [conversation, conversation] })).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_NAME', message: expect.stringContaining('conversation') }),
    );
  });
});

describe('a prompt that asks', () => {
  it('asks the user through elicitation in the 2025-11-25 era (a server-to-client request)', async () => {
    const asking = definePrompt({
      name: 'with_context',
      description: 'Asks for context first.',
      async render(_args, { elicit }) {
        const answer = await elicit('What context should the prompt use?', z.object({ context: z.string() }));
        return answer.action === 'accept' ? `Use this context: ${answer.content.context}` : 'No context.';
      },
    });
    const server = createServer({ name: 'asking', version: '1', prompts: [asking] });
    await using client = await connectTestClient(server, {
      onElicit: () => ({ action: 'accept', content: { context: 'a code review' } }),
    });
    const { messages } = await client.client.getPrompt({ name: 'with_context' });
    expect(messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Use this context: a code review' } }]);
  });
});
