import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerOnNode, type FetchHandler, fetchHandlerOnNode } from './fetch-handler-on-node.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

async function serve(handler: FetchHandler): Promise<string> {
  const adapt = fetchHandlerOnNode(handler, () => {});
  server = createServer((request, response) => {
    void adapt(request, response, { parsed: true });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('fetchHandlerOnNode', () => {
  it('hands over the headers and the parsed body, and writes a JSON answer in one piece with its length', async () => {
    let seen: { header: string | null; parsedBody: unknown; method: string } | undefined;
    const url = await serve({
      fetch: async (request, options) => {
        seen = { header: request.headers.get('x-probe'), parsedBody: options?.parsedBody, method: request.method };
        return Response.json({ ok: true }, { headers: { 'x-answer': 'yes' } });
      },
    });
    const response = await fetch(url, { method: 'POST', headers: { 'x-probe': 'here' }, body: '{}' });
    expect(response.headers.get('content-length')).toBe('11');
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect(response.headers.get('x-answer')).toBe('yes');
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual({ header: 'here', parsedBody: { parsed: true }, method: 'POST' });
  });

  it('streams an event stream as it comes', async () => {
    let push: ((text: string) => void) | undefined;
    const url = await serve({
      fetch: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              push = (text) => controller.enqueue(new TextEncoder().encode(text));
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    });
    const response = await fetch(url, { method: 'POST', body: '{}' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    push?.('data: one\n\n');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: one\n\n');
    push?.('data: two\n\n');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: two\n\n');
    await reader.cancel();
  });

  it("aborts the request's signal when the client goes away before the answer", async () => {
    let aborted: Promise<number> | undefined;
    const url = await serve({
      fetch: (request) => {
        aborted = new Promise((resolve) => request.signal.addEventListener('abort', () => resolve(Date.now())));
        return new Promise(() => {});
      },
    });
    const client = httpRequest(url, { method: 'POST' });
    client.on('error', () => {});
    client.end('{}');
    while (aborted === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    const left = Date.now();
    client.destroy();
    // The handler never ends on its own: an abort that comes at all came from the client leaving. The bound leaves a
    // loaded machine room (its socket close and timers 3-5 times slower than a quiet one's).
    const never = new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), 5_000));
    expect((await Promise.race([aborted, never])) - left).toBeLessThan(2_000);
  });

  it('sends an event stream that has ended at once in one piece with its length', async () => {
    const url = await serve({
      fetch: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('event: message\ndata: {"id":1}\n\n'));
              controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    });
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect(response.headers.get('content-length')).toBe('31');
    expect(await response.text()).toBe('event: message\ndata: {"id":1}\n\n');
  });

  it('ends the answer when the event stream fails before its headers went out', async () => {
    const url = await serve({
      fetch: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              // Erroring drops what was queued: the answer is empty, and it ends.
              controller.enqueue(new TextEncoder().encode('data: one\n\n'));
              controller.error(new Error('broken'));
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    });
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('cancels an event stream when the client goes away in the middle of it', async () => {
    let cancelled: Promise<void> | undefined;
    let first: (() => void) | undefined;
    const url = await serve({
      fetch: async () => {
        let onCancel: () => void = () => {};
        cancelled = new Promise<void>((resolve) => {
          onCancel = resolve;
        });
        return new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              first = () => controller.enqueue(new TextEncoder().encode('data: one\n\n'));
            },
            cancel: () => onCancel(),
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        );
      },
    });
    const controller = new AbortController();
    const response = await fetch(url, { method: 'POST', body: '{}', signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    first?.();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: one\n\n');
    controller.abort();
    await expect(cancelled).resolves.toBeUndefined();
  });

  it("with the 'headers' kind hands over method, URL and headers.get, and no signal", async () => {
    let seen:
      | { method: string; url: string; probe: string | null; missing: string | null; signal: unknown }
      | undefined;
    server = createServer((request, response) => {
      void answerOnNode(
        async (webRequest) => {
          seen = {
            method: webRequest.method,
            url: webRequest.url,
            probe: webRequest.headers.get('X-Probe'),
            missing: webRequest.headers.get('x-absent'),
            signal: webRequest.signal,
          };
          return Response.json({ ok: true });
        },
        request,
        response,
        {},
        () => {},
        'headers',
      );
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const response = await fetch(`http://127.0.0.1:${port}/mcp?x=1`, {
      method: 'POST',
      headers: { 'x-probe': 'here' },
    });
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual({
      method: 'POST',
      url: `http://127.0.0.1:${port}/mcp?x=1`,
      probe: 'here',
      missing: null,
      signal: undefined,
    });
  });
});
