import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitingTool } from '../test/support/waiting-tool.js';
import { createServer, type KitServer } from './create-server.js';
import { defineTool } from './define-tool.js';
import { connectTestClient, protocolEras, resultText } from './testing/index.js';

const withProgress = defineTool({
  name: 'count',
  description: 'Counts to three, reporting progress.',
  async handler(_args, { progress }) {
    await progress(1, 3);
    await progress(2, 3, 'two');
    await progress(3, 3);
    return 'counted';
  },
});

const chatty = defineTool({
  name: 'chatty',
  description: 'Logs at every level.',
  handler(_args, { log }) {
    log.debug('debug line');
    log.info('info line');
    log.warning('warning line');
    log.error('error line', new Error('boom'));
    return 'logged';
  },
});

/** Connects a client to `server` and records every message the server sends on the wire. */
async function connectRecording(server: KitServer) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const sent: JSONRPCMessage[] = [];
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  await server.connect(serverTransport);
  const client = new Client({ name: 'recorder', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(clientTransport);
  return { client, sent };
}

const methodsOf = (messages: JSONRPCMessage[]) =>
  messages.flatMap((message) => ('method' in message ? [message.method] : []));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('progress', () => {
  it('sends progress notifications with the client token when the client asked for progress', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [withProgress] }));
    const updates: unknown[] = [];
    const result = await client.client.callTool({ name: 'count', arguments: {} }, undefined, {
      onprogress: (update) => updates.push(update),
    });
    expect(resultText(result as never)).toBe('counted');
    expect(updates).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3, message: 'two' },
      { progress: 3, total: 3 },
    ]);
  });

  it('sends nothing when the request carries no progress token', async () => {
    const { client, sent } = await connectRecording(createServer({ name: 't', version: '1', tools: [withProgress] }));
    await client.callTool({ name: 'count', arguments: {} });
    expect(methodsOf(sent)).not.toContain('notifications/progress');
    await client.close();
  });
});

describe('logging', () => {
  it('sends log notifications at or above the level the client set, and only those', async () => {
    await using client = await connectTestClient(
      createServer({ name: 't', version: '1', tools: [chatty], logLevel: 'emergency' }),
    );
    await client.client.setLoggingLevel('warning');
    await client.callTool('chatty');
    const logs = () =>
      client.notifications.flatMap((item) => (item.method === 'notifications/message' ? [item.params] : []));
    await expect.poll(() => logs().length).toBe(2);
    expect(logs()).toEqual([
      { level: 'warning', logger: 't', data: 'warning line' },
      { level: 'error', logger: 't', data: { message: 'error line', data: 'boom' } },
    ]);
  });

  it('sends info and above before the client sets a level', async () => {
    await using client = await connectTestClient(
      createServer({ name: 't', version: '1', tools: [chatty], logLevel: 'emergency' }),
    );
    await client.callTool('chatty');
    await client.client.ping();
    expect(
      client.notifications.flatMap((item) => (item.method === 'notifications/message' ? [item.params.level] : [])),
    ).toEqual(['info', 'warning', 'error']);
  });

  it('writes to stderr at the server level, with the stack of an error, and never to stdout', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, 'write');
    await using client = await connectTestClient(
      createServer({ name: 'srv', version: '1', tools: [chatty], logLevel: 'warning' }),
    );
    await client.callTool('chatty');
    const written = stderr.mock.calls.map(([chunk]) => String(chunk));
    expect(written.filter((line) => line.startsWith('[srv]'))).toEqual([
      '[srv] warning: warning line\n',
      expect.stringMatching(/^\[srv\] error: error line\nError: boom\n\s+at /),
    ]);
    expect(stdout).not.toHaveBeenCalled();
  });

  it('broadcasts server-wide logs to every connected client', async () => {
    const server = createServer({ name: 't', version: '1', logLevel: 'emergency' });
    await using first = await connectTestClient(server);
    await using second = await connectTestClient(server);
    server.log.warning('disk almost full');
    for (const client of [first, second]) {
      await expect
        .poll(() => client.notifications.find((item) => item.method === 'notifications/message')?.params)
        .toEqual({ level: 'warning', logger: 't', data: 'disk almost full' });
    }
  });
});

describe('cancellation', () => {
  it('aborts the handler signal when the client cancels the request', async () => {
    const { tool: wait, seen } = waitingTool();
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [wait] }));
    const controller = new AbortController();
    const call = client.client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
    await expect.poll(() => seen.started).toBe(true);
    controller.abort('the user pressed stop');
    await expect(call).rejects.toThrow();
    await expect.poll(() => seen.aborted).toBe(true);
    expect(seen.reason).toBeDefined();
  });

  it('aborts handlers in flight when the server closes, then runs onClose once', async () => {
    const { tool: wait, seen } = waitingTool();
    const onClose = vi.fn();
    const server = createServer({ name: 't', version: '1', tools: [wait], onClose });
    const client = await connectTestClient(server);
    const call = client.callTool('wait').catch(() => undefined);
    await expect.poll(() => seen.started).toBe(true);
    await Promise.all([server.close(), server.close()]);
    expect(seen.aborted).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(server.signal.aborted).toBe(true);
    await call;
    await expect(server.connect(InMemoryTransport.createLinkedPair()[1])).rejects.toMatchObject({
      code: 'SERVER_CLOSED',
    });
  });
});

describe('the handler context', () => {
  it.each(protocolEras)('gives the same function on every read, and its parts work destructured (%s)', async (era) => {
    let sameOnEveryRead = false;
    const inspect = defineTool({
      name: 'inspect',
      description: 'Reads its context twice, then uses it destructured.',
      async handler(_args, context) {
        const read = () => [context.progress, context.log, context.roots, context.sample, context.elicit];
        const [first, second] = [read(), read()];
        sameOnEveryRead = first.every((part, index) => part === second[index]);
        const { progress, signal, log } = context;
        await progress(1, 1);
        log.info('destructured');
        return signal.aborted ? 'aborted' : 'answered';
      },
    });
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [inspect] }), { era });
    const updates: unknown[] = [];
    const result = await client.client.callTool({ name: 'inspect', arguments: {} }, undefined, {
      onprogress: (update) => updates.push(update),
    });
    expect(resultText(result as never)).toBe('answered');
    expect(sameOnEveryRead).toBe(true);
    expect(updates).toEqual([{ progress: 1, total: 1 }]);
  });
});

describe('the signal of a modern-era call', () => {
  it('is made only when the handler reads it (an AbortController and a listener a call)', async () => {
    let made = 0;
    const Original = globalThis.AbortController;
    vi.stubGlobal(
      'AbortController',
      class CountedAbortController extends Original {
        constructor() {
          super();
          made += 1;
        }
      },
    );
    try {
      const quiet = defineTool({ name: 'quiet', description: 'Never reads its signal.', handler: () => 'quiet' });
      const reads = defineTool({
        name: 'reads',
        description: 'Reads its signal.',
        handler: (_args, { signal }) => (signal.aborted ? 'aborted' : 'reads'),
      });
      const server = createServer({ name: 't', version: '1', tools: [quiet, reads] });
      await using client = await connectTestClient(server, { era: '2026-07-28' });
      const madeBy = async (name: string) => {
        const before = made;
        expect(await client.callToolText(name)).toBe(name);
        return made - before;
      };
      // The first call of each loads what the call path needs; the second is what every later call costs.
      await madeBy('quiet');
      await madeBy('reads');
      expect((await madeBy('reads')) - (await madeBy('quiet'))).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('progress that does not move forward', () => {
  it('is not sent: each notification of a call carries a greater value, as the protocol asks', async () => {
    const repeating = defineTool({
      name: 'repeating',
      description: 'Reports a count twice, goes back, then forward.',
      async handler(_args, { progress }) {
        await progress(1, undefined, 'scanned');
        await progress(1, undefined, 'scanned again');
        await progress(0.5);
        await progress(Number.NaN);
        await progress(2, 2, 'done');
        return 'reported';
      },
    });
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [repeating] }));
    const updates: unknown[] = [];
    await client.client.callTool({ name: 'repeating', arguments: {} }, undefined, {
      onprogress: (update) => updates.push(update),
    });
    expect(updates).toEqual([
      { progress: 1, message: 'scanned' },
      { progress: 2, total: 2, message: 'done' },
    ]);
  });
});
