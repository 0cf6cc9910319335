import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectTestClient, resultText } from '@mcpkit/server-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { braveProvider } from '../src/web/brave-provider.js';
import { searxngProvider } from '../src/web/searxng-provider.js';
import { webOnlyServer } from './web-only-server.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
const servers: Server[] = [];

/** A provider stand-in on 127.0.0.1 that records each request's URL, headers and arrival time. */
async function provider(handler: Handler) {
  const seen: { url: URL; headers: IncomingMessage['headers']; at: number }[] = [];
  const server = createServer((request, response) => {
    seen.push({ url: new URL(request.url ?? '/', 'http://127.0.0.1'), headers: request.headers, at: Date.now() });
    handler(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const sendJson = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

/** A response in Brave's documented web search format. */
const braveAnswer = {
  type: 'search',
  query: { original: 'mcp servers', more_results_available: true },
  mixed: { type: 'mixed', main: [{ type: 'web', index: 0, all: false }] },
  web: {
    type: 'search',
    family_friendly: true,
    results: [
      {
        type: 'search_result',
        title: 'The <strong>Model Context Protocol</strong>',
        url: 'https://modelcontextprotocol.io/',
        description: 'An open protocol for <strong>MCP servers</strong> and clients.',
        age: '3 days ago',
        page_age: '2025-06-01T00:00:00',
        language: 'en',
        profile: { name: 'modelcontextprotocol.io', url: 'https://modelcontextprotocol.io/' },
      },
      { type: 'search_result', title: 'Second', url: 'https://example.org/second', description: 'Another result.' },
    ],
  },
};

/** A response in SearXNG's documented `format=json` shape. */
const searxngAnswer = {
  query: 'mcp servers',
  number_of_results: 0,
  results: [
    {
      url: 'https://modelcontextprotocol.io/',
      title: 'Model Context Protocol',
      content: 'An open protocol for MCP servers.',
      engine: 'duckduckgo',
      parsed_url: ['https', 'modelcontextprotocol.io', '/', '', '', ''],
      engines: ['duckduckgo', 'brave'],
      positions: [1, 2],
      score: 4,
      category: 'general',
      publishedDate: null,
    },
    { url: 'https://example.org/b', title: 'B', content: 'b', engine: 'bing', engines: ['bing'], score: 1 },
    { url: 'https://example.org/c', title: 'C', content: 'c', engine: 'bing', engines: ['bing'], score: 0.5 },
  ],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: ['mcp protocol'],
  unresponsive_engines: [],
};

const signal = () => AbortSignal.timeout(20_000);

describe('Brave Search provider', () => {
  it('sends the key and arguments and reads the documented response', async () => {
    const fake = await provider((_request, response) => sendJson(response, 200, braveAnswer));
    const brave = braveProvider({ apiKey: 'secret-key', endpoint: `${fake.origin}/res/v1/web/search` });
    const results = await brave.search({ query: 'mcp servers', count: 5, offset: 2 }, signal());
    expect(fake.seen[0]?.headers['x-subscription-token']).toBe('secret-key');
    expect(fake.seen[0]?.url.pathname).toBe('/res/v1/web/search');
    expect(Object.fromEntries(fake.seen[0]?.url.searchParams ?? [])).toEqual({
      q: 'mcp servers',
      count: '5',
      offset: '2',
    });
    expect(results[0]).toEqual({
      title: 'The **Model Context Protocol**',
      url: 'https://modelcontextprotocol.io/',
      snippet: 'An open protocol for **MCP servers** and clients.',
      age: '3 days ago',
    });
    expect(results).toHaveLength(2);
  });

  it('says when the key is refused', async () => {
    const fake = await provider((_request, response) => sendJson(response, 401, { error: 'unauthorized' }));
    const brave = braveProvider({ apiKey: 'bad', endpoint: fake.origin });
    await expect(brave.search({ query: 'x', count: 1, offset: 0 }, signal())).rejects.toThrow(/refused the API key/);
  });

  it('waits out a short Retry-After on 429 and then succeeds', async () => {
    let calls = 0;
    const fake = await provider((_request, response) => {
      calls++;
      if (calls === 1) sendJson(response, 429, { error: 'rate limited' }, { 'retry-after': '1' });
      else sendJson(response, 200, braveAnswer);
    });
    const brave = braveProvider({ apiKey: 'k', endpoint: fake.origin, requestsPerSecond: 100 });
    const results = await brave.search({ query: 'x', count: 2, offset: 0 }, signal());
    expect(results).toHaveLength(2);
    expect(calls).toBe(2);
    expect((fake.seen[1]?.at ?? 0) - (fake.seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('gives up at once, with the wait, when Retry-After is long', async () => {
    const fake = await provider((_request, response) => sendJson(response, 429, {}, { 'retry-after': '120' }));
    const brave = braveProvider({ apiKey: 'k', endpoint: fake.origin });
    const started = Date.now();
    await expect(brave.search({ query: 'x', count: 1, offset: 0 }, signal())).rejects.toThrow(
      /rate limiting these searches; try again in 120 seconds/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('queues calls over its rate instead of failing them', async () => {
    const fake = await provider((_request, response) => sendJson(response, 200, braveAnswer));
    const brave = braveProvider({ apiKey: 'k', endpoint: fake.origin, requestsPerSecond: 2 });
    const all = await Promise.all([0, 1, 2].map(() => brave.search({ query: 'x', count: 1, offset: 0 }, signal())));
    expect(all.every((results) => results.length === 1)).toBe(true);
    // Slots 500 ms apart put the third call 1000 ms after the first; arrival times at the fake provider carry the
    // first connection's set-up (64 ms once under load; 300 ms of room here for a machine 3-5 times slower), while
    // without the queue all three arrive within a few ms, and at twice the rate the third would come after 500 ms.
    const times = fake.seen.map((seen) => seen.at);
    expect((times[2] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(700);
  });

  it('times out a provider that does not answer', async () => {
    const fake = await provider(() => {});
    const brave = braveProvider({ apiKey: 'k', endpoint: fake.origin, timeoutMs: 500 });
    await expect(brave.search({ query: 'x', count: 1, offset: 0 }, signal())).rejects.toThrow(
      /did not answer within 0.5 seconds/,
    );
  });

  it('says clearly when the provider cannot be reached', async () => {
    const fake = await provider(() => {});
    const closed = fake.origin;
    const server = servers.pop() as Server;
    await new Promise((resolve) => server.close(resolve));
    const brave = braveProvider({ apiKey: 'k', endpoint: closed });
    await expect(brave.search({ query: 'x', count: 1, offset: 0 }, signal())).rejects.toThrow(
      /could not be reached at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
  });
});

describe('SearXNG provider', () => {
  it('asks for JSON with a page number and reads the documented response', async () => {
    const fake = await provider((_request, response) => sendJson(response, 200, searxngAnswer));
    const searxng = searxngProvider({ url: `${fake.origin}/searx` });
    const results = await searxng.search({ query: 'mcp servers', count: 2, offset: 1 }, signal());
    expect(fake.seen[0]?.url.pathname).toBe('/searx/search');
    expect(Object.fromEntries(fake.seen[0]?.url.searchParams ?? [])).toEqual({
      q: 'mcp servers',
      format: 'json',
      pageno: '2',
    });
    expect(results).toEqual([
      {
        title: 'Model Context Protocol',
        url: 'https://modelcontextprotocol.io/',
        snippet: 'An open protocol for MCP servers.',
      },
      { title: 'B', url: 'https://example.org/b', snippet: 'b' },
    ]);
  });

  it('explains a 403 (JSON format disabled) and an answer that is not JSON', async () => {
    const refusing = await provider((_request, response) => {
      response.writeHead(403);
      response.end('Forbidden');
    });
    await expect(
      searxngProvider({ url: refusing.origin }).search({ query: 'x', count: 1, offset: 0 }, signal()),
    ).rejects.toThrow(/add "json" to search.formats/);
    const html = await provider((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>not json</html>');
    });
    await expect(
      searxngProvider({ url: html.origin }).search({ query: 'x', count: 1, offset: 0 }, signal()),
    ).rejects.toThrow(/not JSON/);
  });
});

describe('web_search tool', () => {
  it('is offered only with a provider and answers with numbered results', async () => {
    const fake = await provider((_request, response) => sendJson(response, 200, searxngAnswer));
    const server = webOnlyServer({ webSearch: searxngProvider({ url: fake.origin }) });
    await using client = await connectTestClient(server);
    expect((await client.client.listTools()).tools.map((tool) => tool.name)).toContain('web_search');
    const result = await client.callTool('web_search', { query: 'mcp servers', count: 3 });
    const text = resultText(result);
    expect(text).toMatch(/^1\. Model Context Protocol\n {3}https:\/\/modelcontextprotocol\.io\//);
    expect(text).toContain('call web_search with offset=1');
    const bad = await client.callTool('web_search', { query: 'x', count: 50 });
    expect(bad.isError).toBe(true);
    await server.close();
  });
});
