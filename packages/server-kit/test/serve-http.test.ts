import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createServer, defineTool, type HttpListening, type HttpOptions, serveHttp } from '../src/index.js';
import { initializeBody, jsonRpcHeaders, messagesOf, openEventStream, rawRequest } from './support/http-request.js';
import { modernMeta } from './support/modern-call.js';
import { waitingTool } from './support/waiting-tool.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its text, logging and reporting progress on the way.',
  input: z.object({ text: z.string() }),
  async handler({ text }, { log, progress }) {
    log.info(`echoing ${text}`);
    await progress(1, 1);
    return text;
  },
});

const open: HttpListening[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((listening) => listening.close()));
});

async function listen(options: HttpOptions = {}) {
  const server = createServer({ name: 'http-test', version: '1', tools: [echo], logLevel: 'emergency' });
  const listening = await serveHttp(server, { port: 0, ...options });
  open.push(listening);
  return { server, listening };
}

async function connectClient(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'http-client', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

describe('serveHttp guards', () => {
  it('binds loopback by default and serves a real SDK client', async () => {
    const { listening } = await listen();
    expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client } = await connectClient(listening.url);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    await client.close();
  });

  it('warns when it serves a reachable address without a token, and not on loopback or with a token', async () => {
    const warned: number[] = [];
    for (const options of [{ host: '0.0.0.0' }, { host: '0.0.0.0', token: 't' }, {}]) {
      const server = createServer({ name: 'exposed', version: '1', logLevel: 'emergency' });
      const warning = vi.spyOn(server.log, 'warning');
      open.push(await serveHttp(server, { port: 0, ...options }));
      warned.push(warning.mock.calls.length);
      if (warning.mock.calls.length > 0) expect(warning.mock.calls[0]?.[0]).toMatch(/without a bearer token/);
    }
    expect(warned).toEqual([1, 0, 0]);
  });

  it('answers 404 outside the endpoint path', async () => {
    const { listening } = await listen();
    const response = await rawRequest(listening.url.replace('/mcp', '/other'), { headers: jsonRpcHeaders, body: '{}' });
    expect(response.status).toBe(404);
  });

  it('answers 403 to a foreign Host (DNS rebinding) and to a foreign Origin', async () => {
    const { listening } = await listen();
    const foreignHost = await rawRequest(listening.url, {
      headers: { ...jsonRpcHeaders, host: 'evil.example.com' },
      body: initializeBody,
    });
    expect(foreignHost.status).toBe(403);
    const foreignOrigin = await rawRequest(listening.url, {
      headers: { ...jsonRpcHeaders, origin: 'http://evil.example.com' },
      body: initializeBody,
    });
    expect(foreignOrigin.status).toBe(403);
    expect(JSON.parse(foreignOrigin.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  it('answers 403 to a request without a Host header', async () => {
    const { listening } = await listen();
    // HTTP/1.0 lets a client leave Host out; every HTTP client library adds one, so this goes over a raw socket.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(listening.port, '127.0.0.1', () => {
        socket.end(
          `POST /mcp HTTP/1.0\r\ncontent-type: application/json\r\ncontent-length: ${initializeBody.length}\r\n\r\n${initializeBody}`,
        );
      });
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk.toString('utf8');
      });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 403 /);
  });

  it('accepts loopback and allowed origins and allowed hosts', async () => {
    const { listening } = await listen({ allowedOrigins: ['https://app.example'], allowedHosts: ['mcp.internal'] });
    const allowed: Record<string, string>[] = [
      { origin: 'https://app.example' },
      { origin: `http://127.0.0.1:${listening.port}` },
      { host: `mcp.internal:${listening.port}` },
    ];
    for (const headers of allowed) {
      const response = await rawRequest(listening.url, {
        headers: { ...jsonRpcHeaders, ...headers },
        body: initializeBody,
      });
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('answers 401 with WWW-Authenticate to a missing or wrong bearer token, and serves the right one', async () => {
    const { listening } = await listen({ token: 's3cret-token' });
    for (const authorization of [undefined, 'Bearer wrong', 'Bearer s3cret-tokenX', 'Basic s3cret-token']) {
      const response = await rawRequest(listening.url, {
        headers: { ...jsonRpcHeaders, ...(authorization ? { authorization } : {}) },
        body: initializeBody,
      });
      expect(response.status, authorization).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
    }
    const { client } = await connectClient(listening.url, { authorization: 'Bearer s3cret-token' });
    expect((await client.listTools()).tools).toHaveLength(1);
    await client.close();
  });

  it('answers 413 to a body over the limit, declared or streamed', async () => {
    const { listening } = await listen({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } });
    const declared = await rawRequest(listening.url, { headers: jsonRpcHeaders, body: big });
    expect(declared.status).toBe(413);
    const streamed = await rawRequest(listening.url, {
      headers: { ...jsonRpcHeaders, 'transfer-encoding': 'chunked' },
      chunks: [big.slice(0, 600), big.slice(600)],
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).error.message).toContain('1024 bytes');
  });

  it('answers malformed JSON with a JSON-RPC parse error', async () => {
    const { listening } = await listen();
    const response = await rawRequest(listening.url, { headers: jsonRpcHeaders, body: '{"jsonrpc": "2.0", "id": 1,' });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' },
      id: null,
    });
  });
});

describe('serveHttp sessions', () => {
  it('keeps no session for an initialize the SDK refuses, and gives its place back', async () => {
    const { server, listening } = await listen({ maxSessions: 2 });
    const kept = await rawRequest(listening.url, { headers: jsonRpcHeaders, body: initializeBody });
    expect(kept.status).toBe(200);
    for (let attempt = 0; attempt < 5; attempt++) {
      // Accept without text/event-stream: the SDK answers 406 before it gives the request a session id.
      const refused = await rawRequest(listening.url, {
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: initializeBody,
      });
      expect(refused.status).toBe(406);
    }
    await expect.poll(() => server.sessionCount, { timeout: 10_000 }).toBe(1);
    expect(listening.sessionCount).toBe(1);
    // the refused ones held no place: the second place is still free
    expect((await rawRequest(listening.url, { headers: jsonRpcHeaders, body: initializeBody })).status).toBe(200);
    expect(listening.sessionCount).toBe(2);
  });

  it('sends the logs and progress of a call on the response stream of that call', async () => {
    const { listening } = await listen();
    const initialized = await rawRequest(listening.url, { headers: jsonRpcHeaders, body: initializeBody });
    const sessionId = initialized.headers['mcp-session-id'] as string;
    const headers = { ...jsonRpcHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    await rawRequest(listening.url, {
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const call = await rawRequest(listening.url, {
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'streamed' }, _meta: { progressToken: 'p1' } },
      }),
    });
    expect(messagesOf(call.body).map((message) => message.method ?? `result ${message.id}`)).toEqual([
      'notifications/message',
      'notifications/progress',
      'result 2',
    ]);
  });

  // Raw sessions, so that no background request (an SDK client's GET stream) touches a session behind the test's back.
  const openSession = async (url: string) =>
    (await rawRequest(url, { headers: jsonRpcHeaders, body: initializeBody })).headers['mcp-session-id'] as string;
  const pingStatus = async (url: string, sessionId: string) =>
    (
      await rawRequest(url, {
        headers: { ...jsonRpcHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
      })
    ).status;

  it('closes the longest-idle session when the cap is reached and it has been idle long enough', async () => {
    const { listening, server } = await listen({ maxSessions: 2, evictIdleAfterMs: 1 });
    const open = () => openSession(listening.url);
    const ping = (sessionId: string) => pingStatus(listening.url, sessionId);
    const first = await open();
    const second = await open();
    await new Promise((resolve) => setTimeout(resolve, 5)); // a clock tick, so that the touch below is newer
    expect(await ping(second)).toBe(200); // the first is now the longest idle
    await new Promise((resolve) => setTimeout(resolve, 5));
    const third = await open();
    expect(listening.sessionCount).toBe(2);
    await expect.poll(() => server.sessionCount, { timeout: 10_000 }).toBe(2);
    expect(await ping(first)).toBe(404);
    expect(await ping(second)).toBe(200);
    expect(await ping(third)).toBe(200);
  });

  it('never closes a busy session for a new one: the new one gets 503 with Retry-After', async () => {
    const { listening } = await listen({ maxSessions: 2, evictIdleAfterMs: 1 });
    const busy = await openSession(listening.url);
    const stream = await openEventStream(listening.url, busy);
    expect(stream.status).toBe(200);
    const idle = await openSession(listening.url);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await openSession(listening.url); // takes the idle session's place
    expect(await pingStatus(listening.url, idle)).toBe(404);
    expect(await pingStatus(listening.url, busy)).toBe(200);
    stream.close();
  });

  it('counts a session as in use while its request is still sending the body', async () => {
    const { listening } = await listen({ maxSessions: 1, evictIdleAfterMs: 50 });
    const sessionId = await openSession(listening.url);
    await new Promise((resolve) => setTimeout(resolve, 100)); // idle long enough to be evicted
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' });
    let finishBody: () => void = () => {};
    const slow = new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        listening.url,
        {
          method: 'POST',
          headers: { ...jsonRpcHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.write(ping.slice(0, 10));
      finishBody = () => request.end(ping.slice(10));
    });
    // Time for the server to take the request's headers in; the body stays unfinished until after the check.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const refused = await rawRequest(listening.url, { headers: jsonRpcHeaders, body: initializeBody });
    finishBody();
    expect(refused.status).toBe(503);
    expect(await slow).toBe(200);
  });

  it('refuses a new session with 503 and Retry-After while every session was used recently', async () => {
    const { listening } = await listen({ maxSessions: 2 });
    const first = await openSession(listening.url);
    const second = await openSession(listening.url);
    const refused = await rawRequest(listening.url, { headers: jsonRpcHeaders, body: initializeBody });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: -32000, message: expect.stringContaining('busy') },
    });
    expect(await pingStatus(listening.url, first)).toBe(200);
    expect(await pingStatus(listening.url, second)).toBe(200);
    await rawRequest(listening.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': first, 'mcp-protocol-version': '2025-06-18' },
    });
    expect((await rawRequest(listening.url, { headers: jsonRpcHeaders, body: initializeBody })).status).toBe(200);
  });

  it('keeps a session with an open stream past the idle limit, and closes it once the stream ends', async () => {
    const { listening } = await listen({ sessionIdleMs: 500 });
    const sessionId = await openSession(listening.url);
    const stream = await openEventStream(listening.url, sessionId);
    expect(stream.status).toBe(200);
    // Absence cannot be polled for: wait several sweeps, then check that the session is still there.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(listening.sessionCount).toBe(1);
    stream.close();
    await expect.poll(() => listening.sessionCount, { timeout: 10_000 }).toBe(0);
  });

  it('closes a session idle for longer than the idle limit', async () => {
    const { listening, server } = await listen({ sessionIdleMs: 200 });
    const sessionId = await openSession(listening.url);
    // no check that the session exists first: on a loaded machine the sweeper may already have closed it
    await expect.poll(() => listening.sessionCount, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => server.sessionCount, { timeout: 10_000 }).toBe(0);
    expect(await pingStatus(listening.url, sessionId)).toBe(404);
  });

  it('ends a session on DELETE', async () => {
    const { listening } = await listen();
    const { client, transport } = await connectClient(listening.url);
    expect(listening.sessionCount).toBe(1);
    await transport.terminateSession();
    await expect.poll(() => listening.sessionCount, { timeout: 10_000 }).toBe(0);
    await client.close();
  });

  it('refuses a request without a session id that is not initialize, and an unknown session id', async () => {
    const { listening } = await listen();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' });
    expect((await rawRequest(listening.url, { headers: jsonRpcHeaders, body: ping })).status).toBe(400);
    const unknown = await rawRequest(listening.url, {
      headers: { ...jsonRpcHeaders, 'mcp-session-id': 'no-such-session' },
      body: ping,
    });
    expect(unknown.status).toBe(404);
  });

  it('in stateless mode, answers each request on its own, without a session', async () => {
    const { listening, server } = await listen({ stateless: true });
    const initialized = await rawRequest(listening.url, { headers: jsonRpcHeaders, body: initializeBody });
    expect(initialized.status).toBe(200);
    expect(initialized.headers['mcp-session-id']).toBeUndefined();
    const call = await rawRequest(listening.url, {
      headers: jsonRpcHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'alone' } },
      }),
    });
    expect(call.status).toBe(200);
    expect(messagesOf(call.body).at(-1)).toMatchObject({
      id: 2,
      result: { content: [{ type: 'text', text: 'alone' }] },
    });
    expect(listening.sessionCount).toBe(0);
    await expect.poll(() => server.sessionCount, { timeout: 10_000 }).toBe(0);
    const { client } = await connectClient(listening.url);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'sdk' } })).content).toEqual([
      { type: 'text', text: 'sdk' },
    ]);
    await client.close();
  });

  for (const mode of ['session', 'stateless', '2026-07-28'] as const) {
    it(`aborts a call's signal within 2 s when its client disconnects before the answer (${mode})`, async () => {
      const { tool: wait, seen } = waitingTool();
      const server = createServer({ name: 'leaving', version: '1', tools: [wait], logLevel: 'emergency' });
      const listening = await serveHttp(server, { port: 0, stateless: mode === 'stateless' });
      open.push(listening);
      let headers: Record<string, string> = jsonRpcHeaders;
      let meta = {};
      if (mode === '2026-07-28') {
        headers = { ...jsonRpcHeaders, 'mcp-protocol-version': mode, 'mcp-method': 'tools/call', 'mcp-name': 'wait' };
        meta = { _meta: modernMeta('leaving') };
      }
      if (mode === 'session') {
        const sessionId = (await openSession(listening.url)).toString();
        headers = { ...jsonRpcHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
        await rawRequest(listening.url, {
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        });
      }
      const leaving = new AbortController();
      const call = fetch(listening.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'wait', arguments: {}, ...meta },
        }),
        signal: leaving.signal,
      }).catch(() => 'left');
      await expect.poll(() => seen.started, { timeout: 10_000 }).toBe(true);
      const left = performance.now();
      leaving.abort();
      await call;
      // The tool never ends on its own: an abort that comes at all came from the client leaving. The bound leaves a
      // loaded machine room (3-5 times slower than a quiet one).
      await expect.poll(() => seen.aborted, { timeout: 5_000, interval: 5 }).toBe(true);
      expect(performance.now() - left).toBeLessThan(2_000);
    });
  }

  it('close() stops listening, aborts handlers in flight and runs onClose', async () => {
    const { tool: wait, seen } = waitingTool();
    let closed = false;
    const server = createServer({
      name: 'closing',
      version: '1',
      tools: [wait],
      onClose: () => {
        closed = true;
      },
    });
    const listening = await serveHttp(server, { port: 0 });
    const { client } = await connectClient(listening.url);
    // The connection closes under the call, so it can only end by the client's own timeout.
    const call = client.callTool({ name: 'wait', arguments: {} }, { timeout: 3000 }).then(
      () => 'answered',
      () => 'failed',
    );
    await expect.poll(() => seen.started, { timeout: 10_000 }).toBe(true);
    await listening.close();
    await listening.closed;
    expect(seen.aborted).toBe(true);
    expect(closed).toBe(true);
    await expect(rawRequest(listening.url, { headers: jsonRpcHeaders, body: initializeBody })).rejects.toThrow();
    expect(await call).toBe('failed');
    await client.close();
  });
});
