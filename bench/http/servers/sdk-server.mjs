#!/usr/bin/env node
// The same echo tool on raw SDK 2.x McpServers over Streamable HTTP: the baseline the kit is measured against.
//   --stateless: the SDK's createMcpHandler (a fresh McpServer per request, both protocol eras: 2026-07-28 requests
//     natively, 2025-11-25 ones through its stateless legacy fallback), on node:http through @modelcontextprotocol/node.
//   otherwise: the SDK's classic session pattern for 2025-11-25 (a NodeStreamableHTTPServerTransport and an McpServer
//     per session, looked up by Mcp-Session-Id).
// Prints the endpoint URL as its one line on stdout once it listens.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

function echoServer() {
  const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes its text.',
      inputSchema: z.object({ text: z.string() }),
      annotations: { readOnlyHint: true },
    },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

async function readJson(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

let handler;
if (process.argv.includes('--stateless')) {
  handler = toNodeHandler(createMcpHandler(() => echoServer()));
} else {
  const sessions = new Map();
  handler = async (request, response) => {
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    const sessionId = request.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (typeof sessionId === 'string' || !isInitializeRequest(body)) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad request' }, id: null }));
        return;
      }
      transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
        onsessionclosed: (id) => sessions.delete(id),
      });
      await echoServer().connect(transport);
    }
    await transport.handleRequest(request, response, body);
  };
}

const httpServer = createServer((request, response) => {
  handler(request, response).catch(() => {
    if (!response.headersSent) response.writeHead(500);
    response.end();
  });
});
httpServer.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${httpServer.address().port}/mcp\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
