import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, defineTool, type HttpListening, serveHttp } from '../src/index.js';
import { initializeBody, jsonRpcHeaders, rawRequest } from './support/http-request.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let listening: HttpListening | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await listening?.close();
});

/** A server whose `big` tool answers one megabyte, and a session on it. */
async function bigAnswers() {
  let calls = 0;
  const big = defineTool({
    name: 'big',
    description: 'Answers a megabyte.',
    input: z.object({ n: z.number() }),
    budget: 2_000_000,
    handler: () => {
      calls += 1;
      return 'r'.repeat(1_000_000);
    },
  });
  const server = createServer({ name: 'backpressure', version: '1', tools: [big], logLevel: 'emergency' });
  listening = await serveHttp(server, { port: 0 });
  const initialized = await rawRequest(listening.url, { headers: jsonRpcHeaders, body: initializeBody });
  const sessionId = initialized.headers['mcp-session-id'] as string;
  const call = (id: number) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'big', arguments: { n: id } },
    });
    return (
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
      `accept: application/json, text/event-stream\r\nmcp-session-id: ${sessionId}\r\n` +
      `mcp-protocol-version: 2025-06-18\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    );
  };
  const open = async () => {
    const socket = connect(listening?.port ?? 0, '127.0.0.1');
    sockets.push(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    return socket;
  };
  return { calls: () => calls, call, open, url: listening.url, sessionId };
}

describe('serveHttp against a client that never reads', () => {
  /** Waits until the server stops taking work: the count of calls holds still for half a second. */
  const settled = async (calls: () => number) => {
    let seen = -1;
    while (calls() !== seen) {
      seen = calls();
      await pause(500);
    }
    return seen;
  };

  it('stops starting pipelined requests while a connection has too much unsent, and goes on once it reads', async () => {
    const { calls, call, open, url } = await bigAnswers();
    const socket = await open();
    socket.pause(); // reads nothing of the answers, for now
    socket.write(Array.from({ length: 30 }, (_, index) => call(index + 1)).join(''));
    // 4 running plus what the loopback socket buffers hold; without the gate all 30 ran (30 MB waiting in memory).
    const ran = await settled(calls);
    expect(ran).toBeLessThan(30);
    const latencies: number[] = [];
    for (let probe = 0; probe < 5; probe++) {
      const started = performance.now();
      const answer = await rawRequest(url, { headers: jsonRpcHeaders, body: initializeBody });
      latencies.push(performance.now() - started);
      expect(answer.status).toBe(200);
    }
    // A server held by the stuck connection would not answer at all; a loaded machine's initialize takes a few
    // hundred milliseconds.
    expect(latencies.sort((a, b) => a - b)[2]).toBeLessThan(1_000);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.resume();
    await expect.poll(() => received.match(/"id":\d+}/g)?.length ?? 0, { timeout: 20_000 }).toBe(30);
    expect(calls()).toBe(30);
  });

  it('bounds the work taken from a connection however many requests it pipelines', async () => {
    const { calls, call, open } = await bigAnswers();
    const socket = await open();
    socket.pause();
    socket.write(Array.from({ length: 300 }, (_, index) => call(index + 1)).join(''));
    // Node's parser stops reading the rest; without the gate the server ran about 150 of them (150 MB unsent).
    expect(await settled(calls)).toBeLessThan(30);
  });

  it('answers a client that pipelines and reads every request, in order', async () => {
    const { call, open } = await bigAnswers();
    const socket = await open();
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.write(Array.from({ length: 12 }, (_, index) => call(index + 1)).join(''));
    await expect.poll(() => received.match(/"id":\d+}/g)?.length ?? 0, { timeout: 20_000 }).toBe(12);
    const order = [...received.matchAll(/"id":(\d+)}/g)].map((match) => Number(match[1]));
    expect(order).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
  });
});
