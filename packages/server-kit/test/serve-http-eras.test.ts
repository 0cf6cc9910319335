import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, definePrompt, defineTool, type HttpListening, serveHttp } from '../src/index.js';
import { jsonRpcHeaders, rawRequest } from './support/http-request.js';
import { modernCall, modernMeta } from './support/modern-call.js';

const askTwice = defineTool({
  name: 'ask_twice',
  description: 'Asks for a name, then a color.',
  input: z.object({ greeting: z.string() }),
  async handler({ greeting }, { elicit }) {
    const name = await elicit('Your name?', z.object({ name: z.string() }));
    const color = await elicit('Your favorite color?', z.object({ color: z.string() }));
    if (name.action !== 'accept' || color.action !== 'accept') return 'no answer';
    return `${greeting} ${name.content.name}, who likes ${color.content.color}`;
  },
});

const byRegion = defineTool({
  name: 'by_region',
  description: 'Answers from one region; gateways route on the Mcp-Param-Region header.',
  input: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }), query: z.string() }),
  handler: ({ region, query }) => `${query} in ${region}`,
});

const withContext = definePrompt({
  name: 'with_context',
  description: 'Asks for context first.',
  async render(_args, { elicit }) {
    const answer = await elicit('What context should the prompt use?', z.object({ context: z.string() }), {
      key: 'user_context',
    });
    return answer.action === 'accept' ? `Use this context: ${answer.content.context}` : 'No context.';
  },
});

const sharedKey = 'a shared request-state key of 32+ bytes';
const open: HttpListening[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((listening) => listening.close()));
});

async function instance(key = sharedKey, options: { token?: string } = {}) {
  const server = createServer({
    name: 'eras',
    version: '1',
    tools: [askTwice, byRegion],
    prompts: [withContext],
    logLevel: 'emergency',
    requestState: { key },
    cache: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' } },
  });
  const listening = await serveHttp(server, { port: 0, ...options });
  open.push(listening);
  return listening.url;
}

describe('serveHttp serves the 2026-07-28 era next to legacy sessions', () => {
  it('answers a modern call without a session, and continues a multi-round call on another instance', async () => {
    const first = await instance();
    const second = await instance();
    const call = { name: 'ask_twice', arguments: { greeting: 'hello' } };

    const round1 = await modernCall(first, 'tools/call', call);
    expect(round1.status).toBe(200);
    expect(round1.message?.result).toMatchObject({ resultType: 'input_required' });
    const round2 = await modernCall(second, 'tools/call', {
      ...call,
      inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
      requestState: round1.message?.result?.requestState,
    });
    expect(round2.message?.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'elicit-2': {} } });
    const round3 = await modernCall(first, 'tools/call', {
      ...call,
      inputResponses: { 'elicit-2': { action: 'accept', content: { color: 'blue' } } },
      requestState: round2.message?.result?.requestState,
    });
    expect(round3.message?.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'hello Ada, who likes blue' }],
    });
  });

  it('marks modern answers with the configured cache hints, and the rest with ttlMs 0 and private', async () => {
    const url = await instance();
    expect((await modernCall(url, 'tools/list', {})).message?.result).toMatchObject({
      ttlMs: 60_000,
      cacheScope: 'public',
    });
    expect((await modernCall(url, 'prompts/list', {})).message?.result).toMatchObject({
      ttlMs: 0,
      cacheScope: 'private',
    });
  });

  it('asks from a prompt too: prompts/get answers input_required, then the rendered prompt', async () => {
    const url = await instance();
    const round1 = await modernCall(url, 'prompts/get', { name: 'with_context' });
    expect(round1.message?.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_context: { method: 'elicitation/create' } },
    });
    const round2 = await modernCall(url, 'prompts/get', {
      name: 'with_context',
      inputResponses: { user_context: { action: 'accept', content: { context: 'a code review' } } },
      requestState: round1.message?.result?.requestState,
    });
    expect(round2.message?.result).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'Use this context: a code review' } }],
    });
  });

  it('refuses a state signed by an instance with another key, and one sent with other arguments', async () => {
    const first = await instance();
    const other = await instance('another key, also 32 bytes or more');
    const call = { name: 'ask_twice', arguments: { greeting: 'hello' } };
    const round1 = await modernCall(first, 'tools/call', call);
    const retry = {
      inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
      requestState: round1.message?.result?.requestState,
    };
    const foreign = await modernCall(other, 'tools/call', { ...call, ...retry });
    expect(foreign.message?.error).toMatchObject({
      code: -32602,
      data: { reason: 'invalid_request_state', detail: 'altered' },
    });
    const moved = await modernCall(first, 'tools/call', { ...call, arguments: { greeting: 'bye' }, ...retry });
    expect(moved.message?.error).toMatchObject({ code: -32602, data: { detail: 'other_call' } });
  });

  it('applies the Host check and the body limit to modern requests too: 403 and 413', async () => {
    const server = createServer({ name: 'eras', version: '1', tools: [byRegion], logLevel: 'emergency' });
    const listening = await serveHttp(server, { port: 0, maxBodyBytes: 1024 });
    open.push(listening);
    const call = { name: 'by_region', arguments: { region: 'eu', query: 'x' } };
    const headers = { 'mcp-param-region': 'eu' };
    // fetch cannot set Host: a raw request can, as a rebinding page's browser would.
    const foreignHost = await rawRequest(listening.url, {
      headers: {
        ...jsonRpcHeaders,
        ...headers,
        host: 'evil.example',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'by_region',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { ...call, _meta: modernMeta('x') },
      }),
    });
    expect(foreignHost.status).toBe(403);
    const big = { ...call, arguments: { region: 'eu', query: 'x'.repeat(2000) } };
    expect((await modernCall(listening.url, 'tools/call', big, { headers })).status).toBe(413);
    expect((await modernCall(listening.url, 'tools/call', call, { headers })).status).toBe(200);
  });

  it('applies the same guards to modern requests: a foreign Origin gets 403, a missing token 401', async () => {
    const url = await instance(sharedKey, { token: 'secret' });
    const call = { name: 'ask_twice', arguments: { greeting: 'hello' } };
    expect((await modernCall(url, 'tools/call', call, { headers: { origin: 'https://evil.example' } })).status).toBe(
      403,
    );
    expect((await modernCall(url, 'tools/call', call)).status).toBe(401);
    const allowed = await modernCall(url, 'tools/call', call, { headers: { authorization: 'Bearer secret' } });
    expect(allowed.message?.result).toMatchObject({ resultType: 'input_required' });
  });

  it('checks Mcp-Param-* headers against the arguments: a missing or different one gets 400 with -32020', async () => {
    const url = await instance();
    const call = { name: 'by_region', arguments: { region: 'Zürich', query: 'weather' } };
    const encoded = `=?base64?${Buffer.from('Zürich').toString('base64')}?=`;
    const agreeing = await modernCall(url, 'tools/call', call, { headers: { 'mcp-param-region': encoded } });
    expect(agreeing.message?.result).toMatchObject({ content: [{ text: 'weather in Zürich' }] });
    const missing = await modernCall(url, 'tools/call', call);
    expect(missing.status).toBe(400);
    expect(missing.message?.error).toMatchObject({
      code: -32020,
      message: expect.stringContaining('header is absent'),
    });
    const other = await modernCall(url, 'tools/call', call, { headers: { 'mcp-param-region': 'Geneva' } });
    expect(other.status).toBe(400);
    expect(other.message?.error).toMatchObject({ code: -32020, data: { mismatch: { header: 'Mcp-Param-Region' } } });
  });

  it('serves the 2.x client, which mirrors the declared arguments into headers itself', async () => {
    const url = await instance();
    const client = new Client(
      { name: 'modern', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('by_region');
      const result = await client.callTool({ name: 'by_region', arguments: { region: 'Zürich', query: 'rain' } });
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'rain in Zürich' }] });
    } finally {
      await client.close();
    }
  });
});
