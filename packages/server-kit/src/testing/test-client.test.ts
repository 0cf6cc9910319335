import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer } from '../create-server.js';
import { defineTool } from '../define-tool.js';
import { connectTestClient, erasUnderTest, protocolEras, transportsUnderTest } from './test-client.js';

const consult = defineTool({
  name: 'consult',
  description: 'Asks the user, then the model, then reads the roots.',
  async handler(_args, { elicit, sample, roots }) {
    const form = await elicit('Your name?', z.object({ name: z.string() }));
    const answer = await sample({ prompt: 'Say hi.' });
    const current = await roots();
    const name = form.action === 'accept' ? form.content.name : form.action;
    const text = answer.content.type === 'text' ? answer.content.text : '?';
    return `${name} / ${text} / ${current?.map((root) => root.uri).join(',') ?? 'no roots'}`;
  },
});

const page = Array.from({ length: 3 }, (_, index) =>
  defineTool({ name: `tool_${index}`, description: `Tool ${index}.`, handler: () => `${index}` }),
);

const build = () => createServer({ name: 't', version: '1', tools: [consult, ...page], pageSize: 2 });

describe.each(protocolEras)('test client, protocol %s', (era) => {
  it('answers elicitation, sampling and roots with the same handlers', async () => {
    await using client = await connectTestClient(build(), {
      era,
      onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
      onSample: () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'scripted' }),
      roots: [{ uri: 'file:///work' }],
    });
    expect(client.era).toBe(era);
    expect(await client.callToolText('consult')).toBe('Ada / hi / file:///work');
    await client.setRoots([{ uri: 'file:///elsewhere' }]);
    await expect.poll(() => client.callToolText('consult')).toBe('Ada / hi / file:///elsewhere');
  });

  it('lists one page without a cursor and rejects a JSON-RPC error as a ProtocolError', async () => {
    await using client = await connectTestClient(build(), { era });
    const first = await client.client.listTools();
    expect(first.tools).toHaveLength(2);
    expect(first.nextCursor).toBeDefined();
    const error = await client.client.callTool({ name: 'missing' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: ProtocolErrorCode.InvalidParams, message: 'Unknown tool: missing' });
  });
});

describe('a modern round that ends asking', () => {
  it('aborts the handler signal, so that work started before the question stops', async () => {
    const reasons: unknown[] = [];
    const watching = defineTool({
      name: 'watching',
      description: 'Starts work, then asks.',
      async handler(_args, { elicit, signal }) {
        signal.addEventListener('abort', () => reasons.push(signal.reason));
        const form = await elicit('Go on?', z.object({ go: z.boolean() }));
        return form.action === 'accept' && form.content.go ? 'went on' : 'stopped';
      },
    });
    const server = createServer({ name: 't', version: '1', tools: [watching] });
    await using client = await connectTestClient(server, {
      era: '2026-07-28',
      onElicit: () => ({ action: 'accept', content: { go: true } }),
    });
    expect(await client.callToolText('watching')).toBe('went on');
    // The first round (no answer yet) ended asking; the second completed and aborted nothing.
    expect(reasons).toHaveLength(1);
    expect((reasons[0] as Error).name).toBe('InputPending');
  });
});

describe('transportsUnderTest and erasUnderTest', () => {
  it('give their clients the requested eras', () => {
    const server = { create: build, spawn: { command: process.execPath } };
    expect(transportsUnderTest(server).map((transport) => transport.era)).toEqual(['2025-11-25', '2025-11-25']);
    expect(transportsUnderTest(server, '2026-07-28').map((transport) => `${transport.name} ${transport.era}`)).toEqual([
      'in memory 2026-07-28',
      'stdio 2026-07-28',
    ]);
    expect(erasUnderTest(server).map((transport) => `${transport.name} ${transport.era}`)).toEqual([
      'in memory 2025-11-25',
      'stdio 2025-11-25',
      'in memory 2026-07-28',
      'stdio 2026-07-28',
    ]);
  });
});
