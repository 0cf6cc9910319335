import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer } from '../create-server.js';
import { definePrompt } from '../define-prompt.js';
import { defineResource } from '../define-resource.js';
import { defineTool } from '../define-tool.js';
import { connectTestClient, protocolEras, resultText } from '../testing/index.js';
import type { Middleware, MiddlewareRequest } from './middleware.js';
import { outcomeOf } from './outcome.js';
import { refuse } from './refuse.js';

/** A middleware that writes `name>` before and `<name` after the rest of the chain. */
function tracer(name: string, trace: string[]): Middleware {
  return async (_request, next) => {
    trace.push(`${name}>`);
    try {
      return await next();
    } finally {
      trace.push(`<${name}`);
    }
  };
}

describe.each(protocolEras)('middleware (%s)', (era) => {
  it('runs the server chain in order around a tool call, then the tool’s own, then the handler', async () => {
    const trace: string[] = [];
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes.',
      input: z.object({ word: z.string() }),
      middleware: [tracer('tool', trace)],
      handler: ({ word }) => {
        trace.push('handler');
        return word;
      },
    });
    const server = createServer({
      name: 'ordered',
      version: '1',
      tools: [echo],
      middleware: [tracer('outer', trace), tracer('inner', trace)],
    });
    await using client = await connectTestClient(server, { era });
    expect(await client.callToolText('echo', { word: 'hi' })).toBe('hi');
    expect(trace).toEqual(['outer>', 'inner>', 'tool>', 'handler', '<tool', '<inner', '<outer']);
  });

  it('shows each middleware the method, target, arguments, definition and caller', async () => {
    const seen: MiddlewareRequest[] = [];
    const echo = defineTool({ name: 'echo', description: 'Echoes.', handler: () => 'ok' });
    const server = createServer({
      name: 'seen',
      version: '1',
      tools: [echo],
      middleware: [
        (request, next) => {
          seen.push(request);
          return next();
        },
      ],
    });
    await using client = await connectTestClient(server, { era });
    await client.client.listTools();
    await client.callTool('echo', { word: 'x' });
    const [list, call] = seen.filter((request) => request.method.startsWith('tools/'));
    expect(list).toMatchObject({ method: 'tools/list', target: undefined, definition: undefined });
    expect(call).toMatchObject({
      method: 'tools/call',
      target: 'echo',
      arguments: { word: 'x' },
      era: era === '2025-11-25' ? 'legacy' : 'modern',
    });
    expect(call?.definition).toBe(echo);
    expect(call?.caller.key).toEqual(era === '2025-11-25' ? expect.stringMatching(/^connection:\d+$/) : 'anonymous');
  });

  it('lets a middleware short-circuit: a tool call gets an isError result, a prompt a JSON-RPC error', async () => {
    let ran = 0;
    const server = createServer({
      name: 'refusing',
      version: '1',
      tools: [defineTool({ name: 'secret', description: 'Never runs.', handler: () => `ran ${++ran}` })],
      prompts: [definePrompt({ name: 'hidden', render: () => `ran ${++ran}` })],
      middleware: [
        (request, next) =>
          request.target === 'secret' || request.target === 'hidden' ? refuse(request, 'Not for you.') : next(),
      ],
    });
    await using client = await connectTestClient(server, { era });
    const result = await client.callTool('secret');
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('Not for you.');
    await expect(client.client.getPrompt({ name: 'hidden' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Not for you.'),
    });
    expect(ran).toBe(0);
  });

  it('lets a middleware see and replace the result, and see the JSON-RPC error of an unknown tool', async () => {
    const outcomes: string[] = [];
    const server = createServer({
      name: 'rewriting',
      version: '1',
      tools: [defineTool({ name: 'echo', description: 'Echoes.', handler: () => 'original' })],
      middleware: [
        async (_request, next) => {
          try {
            const result = await next();
            outcomes.push(outcomeOf(result));
            return result;
          } catch (error) {
            outcomes.push('error');
            throw error;
          }
        },
        async (request, next) =>
          request.target === 'echo' ? { content: [{ type: 'text', text: 'replaced' }] } : next(),
      ],
    });
    await using client = await connectTestClient(server, { era });
    expect(await client.callToolText('echo')).toBe('replaced');
    await expect(client.callTool('missing')).rejects.toMatchObject({ code: -32602 });
    expect(outcomes).toEqual(['ok', 'error']);
  });

  it('runs a resource’s and a prompt’s own middleware on reads, gets and completions', async () => {
    const trace: string[] = [];
    const server = createServer({
      name: 'kinds',
      version: '1',
      resources: [
        defineResource({ name: 'note', uri: 'note://one', middleware: [tracer('note', trace)], read: () => 'one' }),
        defineResource({
          name: 'notes',
          template: 'note://all/{id}',
          middleware: [tracer('notes', trace)],
          read: (_uri, variables) => `note ${String(variables.id)}`,
          complete: { id: () => ['1', '2'] },
        }),
      ],
      prompts: [definePrompt({ name: 'greet', middleware: [tracer('greet', trace)], render: () => 'hello' })],
    });
    await using client = await connectTestClient(server, { era });
    await client.client.readResource({ uri: 'note://one' });
    await client.client.readResource({ uri: 'note://all/7' });
    await client.client.getPrompt({ name: 'greet' });
    await client.client.complete({
      ref: { type: 'ref/resource', uri: 'note://all/{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(trace).toEqual(['note>', '<note', 'notes>', '<notes', 'greet>', '<greet', 'notes>', '<notes']);
  });
});

describe('middleware and input rounds (2026-07-28)', () => {
  it('runs once per round: the round that asks ends input-required, the retry ok', async () => {
    const outcomes: string[] = [];
    const server = createServer({
      name: 'rounds',
      version: '1',
      tools: [
        defineTool({
          name: 'ask',
          description: 'Asks the user a question.',
          async handler(_args, { elicit }) {
            const answer = await elicit('Name?', z.object({ name: z.string() }));
            return answer.action === 'accept' ? answer.content.name : 'no';
          },
        }),
      ],
      middleware: [
        async (_request, next) => {
          const result = await next();
          outcomes.push(outcomeOf(result));
          return result;
        },
      ],
    });
    await using client = await connectTestClient(server, {
      era: '2026-07-28',
      onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    expect(await client.callToolText('ask')).toBe('Ada');
    expect(outcomes).toEqual(['input-required', 'ok']);
  });
});
