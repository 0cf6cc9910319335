import { createServer, defineTool, serveHttp } from '@mcpkit/server-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ServerConfig } from '../src/config/server-config.js';
import { ServerConnection } from '../src/connection/server-connection.js';
import { connectHost } from '../src/host.js';
import { collectLog, textOf } from './helpers.js';
import { legacySseServer } from './legacy-sse-server.js';

function echoServer(name: string) {
  return createServer({
    name,
    version: '1.0.0',
    logLevel: 'emergency',
    tools: [
      defineTool({
        name: 'echo',
        description: 'Echoes.',
        input: z.object({ text: z.string() }),
        handler: ({ text }) => `${name}: ${text}`,
      }),
      defineTool({
        name: 'ask_twice',
        description: 'Asks for a name, then for a colour.',
        handler: async (_input, { elicit }) => {
          const first = await elicit('Your name?', z.object({ name: z.string() }));
          const second = await elicit('Your colour?', z.object({ colour: z.string() }));
          if (first.action !== 'accept' || second.action !== 'accept') return 'declined';
          return `${first.content.name} likes ${second.content.colour}`;
        },
      }),
    ],
  });
}

function httpServer(name: string, url: string, headers: Record<string, string> = {}): ServerConfig {
  return {
    name,
    transport: { kind: 'http', url, headers, mode: 'auto' },
    tools: {},
    callTimeoutMs: 10_000,
    startupTimeoutMs: 10_000,
    disabled: false,
  };
}

describe('connecting HTTP servers', () => {
  it('speaks Streamable HTTP with custom headers (a bearer token here)', async () => {
    const kit = echoServer('modern');
    const listening = await serveHttp(kit, { port: 0, token: 'secret' });
    try {
      await using host = await connectHost(
        {
          servers: [
            httpServer('modern', listening.url, { Authorization: 'Bearer secret' }),
            httpServer('unauthorized', listening.url),
          ],
        },
        { log: () => {} },
      );
      expect(textOf(await host.callTool('modern__echo', { text: 'over http' }))).toBe('modern: over http');
      expect(host.failures.map((failure) => failure.server)).toEqual(['unauthorized']);
      expect(host.failures[0]?.message).toMatch(/requires authorization \(HTTP 401\)/);
    } finally {
      await listening.close();
      await kit.close();
    }
  });

  it('carries on with a restarted modern-era server, repeating a call sent on the dropped connection', async () => {
    const first = echoServer('modern');
    const listening = await serveHttp(first, { port: 0 });
    const log = collectLog();
    await using host = await connectHost({ servers: [httpServer('modern', listening.url)] }, { log: log.sink });
    expect(textOf(await host.callTool('modern__echo', { text: 'before' }))).toBe('modern: before');
    await listening.close();
    await first.close();
    const second = echoServer('modern');
    const again = await serveHttp(second, { port: listening.port });
    try {
      expect(textOf(await host.callTool('modern__echo', { text: 'after' }))).toBe('modern: after');
      expect(host.connection('modern')?.protocol?.era).toBe('modern');
      expect(host.connection('modern')?.state).toBe('ready');
    } finally {
      await again.close();
      await second.close();
    }
  });

  it('starts a new 2025-11-25 session when a restarted server has forgotten the old one, and repeats the call', async () => {
    // The kit serves both eras; refusing the discover probe here makes the host fall back to the legacy handshake.
    const refuseDiscover: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('"server/discover"')) {
        const { id } = JSON.parse(init.body) as { id: number };
        return Response.json({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
      }
      return fetch(input, init);
    };
    const first = echoServer('legacy');
    const listening = await serveHttp(first, { port: 0 });
    const log = collectLog();
    const connection = new ServerConnection(httpServer('legacy', listening.url), {
      log: log.sink,
      handlers: {},
      fetch: refuseDiscover,
    });
    await connection.start();
    try {
      expect(connection.protocol).toEqual({ era: 'legacy', version: '2025-11-25', transport: 'streamable-http' });
      expect(textOf(await connection.callTool('echo', { text: 'before' }))).toBe('legacy: before');
      await listening.close();
      await first.close();
      const second = echoServer('legacy');
      const again = await serveHttp(second, { port: listening.port });
      try {
        expect(textOf(await connection.callTool('echo', { text: 'after' }))).toBe('legacy: after');
        expect(log.lines).toContain('[legacy] the server forgot the session; starting a new one');
        expect(connection.state).toBe('ready');
      } finally {
        await again.close();
        await second.close();
      }
    } finally {
      await connection.close();
    }
  });

  it('answers the forms of a modern-era server (input_required rounds over HTTP) with the host elicit handler', async () => {
    const kit = echoServer('modern');
    const listening = await serveHttp(kit, { port: 0 });
    const asked: string[] = [];
    try {
      await using host = await connectHost(
        { servers: [httpServer('modern', listening.url)] },
        {
          log: () => {},
          elicit: async (request) => {
            asked.push(request.message);
            const field = Object.keys(request.schema.properties ?? {})[0] ?? 'value';
            return { action: 'accept', content: { [field]: field === 'name' ? 'Ada' : 'teal' } };
          },
        },
      );
      expect(host.connection('modern')?.protocol?.era).toBe('modern');
      expect(textOf(await host.call('modern', 'ask_twice', {}))).toBe('Ada likes teal');
      expect(asked).toEqual(['Your name?', 'Your colour?']);
    } finally {
      await listening.close();
      await kit.close();
    }
  });

  it('falls back to the legacy HTTP+SSE transport when the server is an old one, headers included', async () => {
    const legacy = await legacySseServer(echoServer('legacy'));
    const log = collectLog();
    try {
      await using host = await connectHost(
        { servers: [httpServer('old', legacy.url, { 'X-Team': 'blue' })] },
        { log: log.sink },
      );
      expect(host.failures).toEqual([]);
      expect(textOf(await host.callTool('old__echo', { text: 'via sse' }))).toBe('legacy: via sse');
      expect(log.lines).toContain('[old] connected with the legacy HTTP+SSE transport');
      expect(legacy.seenHeaders.length).toBeGreaterThan(2);
      expect(legacy.seenHeaders.every((header) => header === 'blue')).toBe(true);
    } finally {
      await legacy.close();
    }
  });
});
