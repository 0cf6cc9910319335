import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { StdioTransport } from './stdio-transport.js';

async function started(maxMessageBytes: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StdioTransport(input, output, maxMessageBytes);
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error.message);
  await transport.start();
  let written = '';
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  const lines = () =>
    written
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { input, transport, messages, errors, lines };
}

const ping = (id: number | string) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('StdioTransport', () => {
  it('delivers lines split across chunks and several lines in one chunk, skipping blank ones', async () => {
    const { input, messages } = await started(1000);
    const two = `${ping(1)}\r\n${ping(2)}`;
    input.write(two.slice(0, 10));
    input.write(two.slice(10) + ping(3).slice(0, 5));
    input.write(ping(3).slice(5));
    await tick();
    expect(messages.map((message) => (message as { id: number }).id)).toEqual([1, 2, 3]);
  });

  it('reports a line that is not JSON-RPC and goes on', async () => {
    const { input, messages, errors } = await started(1000);
    input.write(`not json\n${ping(1)}`);
    await tick();
    expect(errors).toHaveLength(1);
    expect(messages).toHaveLength(1);
  });

  for (const [where, line] of [
    ['first', (padding: string) => `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"${padding}"}}\n`],
    [
      'last',
      (padding: string) => `{"method":"tools/call","params":{"x":"${padding}","id":9},"jsonrpc":"2.0","id":7}\n`,
    ],
  ] as const) {
    it(`answers a line over the limit with an error carrying its id (written ${where}), skips it, and goes on`, async () => {
      const { input, messages, errors, lines } = await started(1000);
      const long = line('y'.repeat(5000));
      for (let index = 0; index < long.length; index += 700) input.write(long.slice(index, index + 700));
      input.write(ping(8));
      await tick();
      expect(lines()).toEqual([
        {
          jsonrpc: '2.0',
          id: 7,
          error: {
            code: -32600,
            message: expect.stringMatching(/^Message too large: 5,0\d\d bytes, over the limit of 1,000 bytes/),
          },
        },
      ]);
      expect(messages).toEqual([{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
      expect(errors).toEqual([expect.stringContaining('Refused a message of')]);
    });
  }

  it('answers with a null id when the id is buried in the middle', async () => {
    const { input, lines } = await started(100);
    input.write(`{"method":"x","id":"a","params":{"x":"${'z'.repeat(1000)}"}}\n`);
    await tick();
    expect(lines()[0]).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('stops reading requests while the client leaves too much output unread, and goes on once it reads', async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 1024 });
    const transport = new StdioTransport(input, output, 1000, 10_000);
    const messages: JSONRPCMessage[] = [];
    transport.onmessage = (message) => messages.push(message);
    await transport.start();
    const answer = { jsonrpc: '2.0' as const, id: 1, result: { text: 'a'.repeat(4000) } };
    void transport.send(answer);
    void transport.send(answer);
    expect(input.isPaused()).toBe(false);
    void transport.send(answer);
    expect(input.isPaused()).toBe(true);
    input.write(ping(1));
    await tick();
    expect(messages).toEqual([]);
    output.resume(); // the client reads
    await expect.poll(() => messages.length).toBe(1);
    expect(input.isPaused()).toBe(false);
  });

  it('has many answers wait for the output to drain without a listener each (no leak warning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const input = new PassThrough();
      const output = new PassThrough({ highWaterMark: 1024 });
      const transport = new StdioTransport(input, output, 1000, 1_000_000);
      await transport.start();
      const answer = { jsonrpc: '2.0' as const, id: 1, result: { text: 'a'.repeat(2000) } };
      const sent = Array.from({ length: 30 }, () => transport.send(answer));
      expect(output.listenerCount('drain')).toBe(1);
      output.resume(); // the client reads
      await Promise.all(sent);
      await tick();
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('stops reading once closed', async () => {
    const { input, transport, messages } = await started(1000);
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    await transport.close();
    input.write(ping(1));
    await tick();
    expect(closed).toBe(true);
    expect(messages).toEqual([]);
  });
});
