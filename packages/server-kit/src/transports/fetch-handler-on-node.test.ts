import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type FetchHandler, fetchHandlerOnNode } from './fetch-handler-on-node.js';

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
    expect((await aborted) - left).toBeLessThan(200);
  });
});
