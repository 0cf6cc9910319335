import { type ElicitRequest, ProtocolError, ProtocolErrorCode, type Root } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { KitSession } from './client-session.js';
import { createServer } from './create-server.js';
import { defineResource } from './define-resource.js';
import { defineTool } from './define-tool.js';
import { connectTestClient, resultText } from './testing/index.js';

const ask = defineTool({
  name: 'ask',
  description: "Asks the client's model.",
  input: z.object({ question: z.string() }),
  async handler({ question }, { sample }) {
    const answer = await sample({ prompt: question, systemPrompt: 'Be brief.' });
    return answer.content.type === 'text' ? `model said: ${answer.content.text}` : 'no text';
  },
});

const profileForm = z.object({
  name: z.string().min(1).describe('Your name'),
  age: z.number().int().min(0).optional(),
  newsletter: z.boolean().default(false),
});

const signUp = defineTool({
  name: 'sign_up',
  description: 'Asks the user for a profile.',
  async handler(_args, { elicit }) {
    const answer = await elicit('Who are you?', profileForm);
    return answer.action === 'accept'
      ? `accepted ${JSON.stringify(answer.content)}`
      : `the user chose ${answer.action}`;
  },
});

const listRoots = defineTool({
  name: 'list_roots',
  description: 'Lists the client roots.',
  async handler(_args, { roots, client }) {
    const current = await roots();
    return `${client.supports('roots')}: ${current ? current.map((root) => root.uri).join(',') : 'none'}`;
  },
});

const tools = [ask, signUp, listRoots];

describe('sampling', () => {
  it("sends a single prompt as one user message and returns the client model's answer", async () => {
    const onSample = vi.fn(() => ({
      role: 'assistant' as const,
      content: { type: 'text' as const, text: 'forty-two' },
      model: 'scripted',
    }));
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools }), { onSample });
    expect(await client.callToolText('ask', { question: 'The answer?' })).toBe('model said: forty-two');
    expect(onSample).toHaveBeenCalledWith(
      expect.objectContaining({
        messages: [{ role: 'user', content: { type: 'text', text: 'The answer?' } }],
        maxTokens: 1000,
        systemPrompt: 'Be brief.',
      }),
    );
  });

  it('passes full sampling parameters through unchanged', async () => {
    const full = defineTool({
      name: 'full',
      description: 'Samples with full parameters.',
      async handler(_args, { sample }) {
        const answer = await sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
          maxTokens: 5,
          temperature: 0,
        });
        return answer.model;
      },
    });
    const onSample = vi.fn(() => ({
      role: 'assistant' as const,
      content: { type: 'text' as const, text: '' },
      model: 'm1',
    }));
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [full] }), {
      onSample,
    });
    expect(await client.callToolText('full')).toBe('m1');
    expect(onSample).toHaveBeenCalledWith(expect.objectContaining({ maxTokens: 5, temperature: 0 }));
  });

  it('gives the model a readable isError result when the client cannot sample', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools }));
    const result = await client.callTool('ask', { question: 'x' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('This client does not support sampling, so the tool cannot ask its model.');
  });
});

describe('elicitation', () => {
  it('sends the form as JSON Schema and returns the parsed answer on accept', async () => {
    let request: ElicitRequest['params'] | undefined;
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools }), {
      onElicit: (params) => {
        request = params;
        return { action: 'accept', content: { name: 'Ada', age: 36 } };
      },
    });
    expect(await client.callToolText('sign_up')).toBe('accepted {"name":"Ada","age":36,"newsletter":false}');
    expect(request).toMatchObject({
      message: 'Who are you?',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'Your name' }, newsletter: { type: 'boolean' } },
        required: ['name'],
      },
    });
  });

  it('treats decline and cancel as normal answers', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      await using client = await connectTestClient(createServer({ name: 't', version: '1', tools }), {
        onElicit: () => ({ action }),
      });
      const result = await client.callTool('sign_up');
      expect(result.isError).toBeUndefined();
      expect(resultText(result)).toBe(`the user chose ${action}`);
    }
  });

  it('answers an accepted form that fails the schema with a readable isError result', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools }), {
      onElicit: () => ({ action: 'accept', content: { name: '', age: -1 } }),
    });
    const result = await client.callTool('sign_up');
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      'The answer to the form was not valid: name must NOT have fewer than 1 characters, age must be >= 0.',
    );
  });

  it('also checks what JSON Schema cannot say (zod refinements) and answers with zod issues', async () => {
    const pick = defineTool({
      name: 'pick',
      description: 'Asks for a user name that is not root.',
      async handler(_args, { elicit }) {
        const answer = await elicit(
          'User?',
          z.object({ user: z.string().refine((value) => value !== 'root', 'must not be root') }),
        );
        return answer.action;
      },
    });
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [pick] }), {
      onElicit: () => ({ action: 'accept', content: { user: 'root' } }),
    });
    const result = await client.callTool('pick');
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('The answer to the form was not valid: user: must not be root.');
  });

  it('gives the model a readable isError result when the client cannot elicit', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools }));
    const result = await client.callTool('sign_up');
    expect(result).toMatchObject({ isError: true });
    expect(resultText(result)).toContain('does not support elicitation');
  });
});

describe('roots', () => {
  const first: Root[] = [{ uri: 'file:///work/a', name: 'a' }];
  const second: Root[] = [
    { uri: 'file:///work/b', name: 'b' },
    { uri: 'file:///work/c', name: 'c' },
  ];

  it('lists the client roots, and undefined for a client that offers none', async () => {
    const server = createServer({ name: 't', version: '1', tools });
    await using withRoots = await connectTestClient(server, { roots: first });
    await using without = await connectTestClient(server);
    expect(await withRoots.callToolText('list_roots')).toBe('true: file:///work/a');
    expect(await without.callToolText('list_roots')).toBe('false: none');
  });

  it('fails a request with a sentence when a client that offers roots cannot list them, and asks again next time', async () => {
    // Answering as if the client offered no roots would let a server fall back to all it was started with.
    const changes: string[][] = [];
    const server = createServer({
      name: 't',
      version: '1',
      tools,
      onRootsChanged: (roots) => changes.push(roots.map((root) => root.uri)),
    });
    await using client = await connectTestClient(server, { roots: first });
    await expect.poll(() => changes).toEqual([['file:///work/a']]);
    client.client.setRequestHandler('roots/list', () => {
      throw new Error('the roots store is unavailable');
    });
    // A change notification whose listing fails tells the listeners nothing (and raises nothing unhandled).
    await client.client.sendRootsListChanged();
    const failed = await client.callTool('list_roots');
    expect(failed.isError).toBe(true);
    expect(resultText(failed)).toMatch(
      /^The client's roots could not be listed \(.*the roots store is unavailable.*\), and they limit what this server may use, so nothing was done; try again\.$/,
    );
    client.client.setRequestHandler('roots/list', () => ({ roots: second }));
    expect(await client.callToolText('list_roots')).toBe('true: file:///work/b,file:///work/c');
    expect(changes).toEqual([['file:///work/a']]);
  });

  it('takes a client that declares roots but answers roots/list with "method not found" as offering none', async () => {
    const server = createServer({ name: 't', version: '1', tools });
    await using client = await connectTestClient(server, { roots: first });
    client.client.setRequestHandler('roots/list', () => {
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
    });
    await client.client.sendRootsListChanged();
    expect(await client.callToolText('list_roots')).toBe('true: none');
  });

  it('gives resource reads the roots of the session that asked', async () => {
    const server = createServer({
      name: 't',
      version: '1',
      resources: [
        defineResource({
          uri: 'roots://current',
          name: 'current-roots',
          read: async ({ roots }) => ((await roots()) ?? []).map((root) => root.uri).join(',') || 'none',
        }),
      ],
    });
    await using a = await connectTestClient(server, { roots: first });
    await using b = await connectTestClient(server, { roots: second });
    const read = async (client: typeof a) =>
      ((await client.client.readResource({ uri: 'roots://current' })).contents[0] as { text: string }).text;
    expect(await read(a)).toBe('file:///work/a');
    expect(await read(b)).toBe('file:///work/b,file:///work/c');
  });

  it('reports the roots at initialization and on every change notification', async () => {
    const seen: string[][] = [];
    const sessions = new Set<KitSession>();
    const server = createServer({
      name: 't',
      version: '1',
      tools,
      onRootsChanged: (roots, session) => {
        seen.push(roots.map((root) => root.uri));
        sessions.add(session);
      },
    });
    await using client = await connectTestClient(server, { roots: first });
    await expect.poll(() => seen).toEqual([['file:///work/a']]);
    await client.setRoots(second);
    await expect.poll(() => seen).toEqual([['file:///work/a'], ['file:///work/b', 'file:///work/c']]);
    expect(await client.callToolText('list_roots')).toBe('true: file:///work/b,file:///work/c');
    expect(sessions.size).toBe(1);
    expect(await [...sessions][0]?.roots()).toEqual(second);
  });
});
