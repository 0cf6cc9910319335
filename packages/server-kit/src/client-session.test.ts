import type { ProtocolError } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createServer } from './create-server.js';
import { definePrompt } from './define-prompt.js';
import { defineResource } from './define-resource.js';
import { defineTool } from './define-tool.js';
import { ToolError } from './errors.js';
import { connectTestClient } from './testing/index.js';

/** A transport whose client has gone: every answer to a request numbered 10 or more finds no one to take it. */
function abandonedTransport(): Transport & { deliver(message: JSONRPCMessage): void } {
  const transport: Transport & { deliver(message: JSONRPCMessage): void } = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    async send(message) {
      if ('id' in message && typeof message.id === 'number' && message.id >= 10 && !('method' in message)) {
        throw new Error(`No connection established for request ID: ${message.id}`);
      }
    },
    deliver(message) {
      transport.onmessage?.(message);
    },
  };
  return transport;
}

describe('a session whose client went away', () => {
  it('logs the lost answers at most once, and never as a warning', async () => {
    const server = createServer({ name: 'left', version: '1', logLevel: 'debug' });
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const transport = abandonedTransport();
      await server.connect(transport);
      transport.deliver({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
      });
      transport.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' });
      for (let id = 10; id < 15; id++) transport.deliver({ jsonrpc: '2.0', id, method: 'ping' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // a positive control: a real protocol error is still a warning
      transport.deliver({ jsonrpc: '2.0', id: 99, result: {} });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      spy.mockRestore();
      await server.close();
    }
    const lost = written.filter((line) => /No connection established|went away/.test(line));
    expect(lost.length).toBeLessThanOrEqual(1);
    expect(lost.filter((line) => /warning/.test(line))).toEqual([]);
    expect(written.filter((line) => /warning/.test(line))).toHaveLength(1);
  });
});

const ping = defineTool({ name: 'ping_back', description: 'Answers pong.', handler: () => 'pong' });
const greeting = definePrompt({
  name: 'greeting',
  arguments: z.object({ name: z.string() }),
  render: ({ name }) => `Greet ${name}.`,
});
const readme = defineResource({ uri: 'note://readme', name: 'readme', read: () => 'hello' });

describe('what a session offers', () => {
  it('advertises only the kinds the server has', async () => {
    const offers = async (options: Parameters<typeof createServer>[0]) => {
      await using client = await connectTestClient(createServer(options));
      const capabilities = client.client.getServerCapabilities() ?? {};
      return ['tools', 'resources', 'prompts', 'completions', 'logging'].filter((kind) => kind in capabilities);
    };
    expect(await offers({ name: 't', version: '1', tools: [ping] })).toEqual(['tools', 'logging']);
    expect(await offers({ name: 't', version: '1', prompts: [greeting] })).toEqual([
      'prompts',
      'completions',
      'logging',
    ]);
    expect(await offers({ name: 't', version: '1', resources: [readme] })).toEqual(['resources', 'logging']);
    expect(await offers({ name: 't', version: '1', tools: [ping], resources: [readme], prompts: [greeting] })).toEqual([
      'tools',
      'resources',
      'prompts',
      'completions',
      'logging',
    ]);
  });

  it('sends error sentences without the SDK prefix, so the client shows "MCP error <code>:" once', async () => {
    await using client = await connectTestClient(
      createServer({ name: 't', version: '1', tools: [ping], resources: [readme], prompts: [greeting] }),
    );
    const failures = await Promise.all([
      client.client.getPrompt({ name: 'missing' }).catch((error: ProtocolError) => `${error.code} ${error.message}`),
      client.client
        .getPrompt({ name: 'greeting', arguments: {} })
        .catch((error: ProtocolError) => `${error.code} ${error.message}`),
      client.client
        .readResource({ uri: 'note://missing' })
        .catch((error: ProtocolError) => `${error.code} ${error.message}`),
      client.client
        .callTool({ name: 'missing', arguments: {} })
        .catch((error: ProtocolError) => `${error.code} ${error.message}`),
      client.client
        .listTools({ cursor: 'not a cursor' })
        .catch((error: ProtocolError) => `${error.code} ${error.message}`),
    ]);
    expect(failures).toEqual([
      '-32602 Unknown prompt: missing',
      expect.stringMatching(/^-32602 Invalid arguments for prompt "greeting": name/),
      '-32602 Resource not found: note://missing',
      '-32602 Unknown tool: missing',
      expect.stringMatching(/^-32602 The cursor is not valid/),
    ]);
  });

  it("holds an error message to 4,000 characters: a ToolError of a resource or a prompt, an unknown tool's name", async () => {
    const huge = 'x'.repeat(1_000_000);
    const failing = defineResource({
      uri: 'note://failing',
      name: 'failing',
      read: () => {
        throw new ToolError(`No note ${huge}.`);
      },
    });
    const refusing = definePrompt({
      name: 'refusing',
      render: () => {
        throw new ToolError(`No prompt ${huge}.`);
      },
    });
    await using client = await connectTestClient(
      createServer({ name: 't', version: '1', tools: [ping], resources: [failing], prompts: [refusing] }),
    );
    const failures = await Promise.all([
      client.client.readResource({ uri: 'note://failing' }).catch((error: ProtocolError) => error.message),
      client.client.getPrompt({ name: 'refusing' }).catch((error: ProtocolError) => error.message),
      client.client.callTool({ name: huge, arguments: {} }).catch((error: ProtocolError) => error.message),
    ]);
    for (const [index, start] of ['No note x', 'No prompt x', 'Unknown tool: x'].entries()) {
      const message = String(failures[index]);
      expect(message.startsWith(start), message.slice(0, 80)).toBe(true);
      expect(message.length).toBeLessThanOrEqual(4000);
      expect(message).toMatch(/\[the message was cut: showed [\d,]+ of 1,000,0\d\d characters\]$/);
    }
  });
});
