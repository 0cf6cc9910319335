import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KitServer } from '@mcpkit/server-kit';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/**
 * The server side of the legacy HTTP+SSE transport (2024-11-05), which the 2.x SDK no longer ships: GET opens an
 * event stream whose first event names the endpoint to POST messages to; answers come back on the stream.
 */
class SseSessionTransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly stream: ServerResponse) {}

  async start(): Promise<void> {
    this.stream.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    this.stream.write(`event: endpoint\ndata: /messages?sessionId=${this.sessionId}\n\n`);
    this.stream.on('close', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    this.stream.end();
  }

  /** Takes one POSTed message: 202 at once, the answer goes out on the stream. */
  async receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of request) body += chunk;
    response.writeHead(202).end('Accepted');
    this.onmessage?.(JSON.parse(body) as JSONRPCMessage);
  }
}

/** A server only reachable over the legacy HTTP+SSE transport, recording each request's `X-Team` header. */
export async function legacySseServer(kit: KitServer) {
  const sessions = new Map<string, SseSessionTransport>();
  const seenHeaders: string[] = [];
  const server = createHttpServer(async (request, response) => {
    seenHeaders.push(String(request.headers['x-team'] ?? ''));
    const url = new URL(request.url ?? '/', 'http://localhost');
    const session = sessions.get(url.searchParams.get('sessionId') ?? '');
    if (request.method === 'GET' && url.pathname === '/sse') {
      const transport = new SseSessionTransport(response);
      sessions.set(transport.sessionId, transport);
      await kit.connect(transport);
    } else if (request.method === 'POST' && url.pathname === '/messages' && session) {
      await session.receive(request, response);
    } else {
      response.writeHead(request.method === 'POST' ? 404 : 405).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`,
    seenHeaders,
    close: async () => {
      await kit.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
