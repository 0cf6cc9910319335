import { serveHttp } from '@mcpkit/server-kit';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createDatabaseServer } from '../src/server.js';
import { makeFixture } from './fixtures.js';

// A statement that runs until its deadline, so the answer always comes after the client has gone.
const runaway = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

describe('a client that goes away mid-call', () => {
  const fixture = makeFixture();
  afterAll(() => fixture.cleanup());

  // The kit used to log "MCP connection error ... Failed to send response ... No connection established" as a warning
  // for every call whose HTTP client left; now the call is cancelled when its client disconnects, and an answer that
  // still finds no one is logged once per session at debug level.
  it('is logged at most once per session, not as a warning per call', async () => {
    const server = await createDatabaseServer({
      file: fixture.file,
      logLevel: 'warning',
      limits: { timeoutMs: 800 },
    });
    const listening = await serveHttp(server, { port: 0 });
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const post = (body: unknown, extra: Record<string, string> = {}, signal?: AbortSignal) =>
        fetch(listening.url, {
          method: 'POST',
          headers: { ...headers, ...extra },
          body: JSON.stringify(body),
          ...(signal ? { signal } : {}),
        });
      const initialize = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'leaving', version: '1' } },
      });
      const session = {
        'mcp-session-id': initialize.headers.get('mcp-session-id') ?? '',
        'mcp-protocol-version': '2025-06-18',
      };
      await initialize.text();
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
      for (const id of [10, 11, 12, 13, 14]) {
        const controller = new AbortController();
        post(
          { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'query', arguments: { sql: runaway } } },
          session,
          controller.signal,
        ).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
        controller.abort();
      }
      // Past the deadline of the abandoned statements, whose answers then find no one.
      await new Promise((resolve) => setTimeout(resolve, 1500));
    } finally {
      spy.mockRestore();
      await listening.close();
    }
    const warnings = written.filter((line) => /warning/i.test(line));
    expect(warnings.length).toBeLessThanOrEqual(1);
  }, 15_000);
});
