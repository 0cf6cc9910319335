import { PassThrough } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createServer,
  defineTool,
  type HttpListening,
  type Middleware,
  preRendered,
  serveHttp,
  serveStdio,
} from '../src/index.js';
import { placeholderKey } from '../src/structured-splice.js';
import { connectTestClient, protocolEras, resultText } from '../src/testing/index.js';
import { modernCall, modernMeta } from './support/modern-call.js';

const rows = Array.from({ length: 50 }, (_, index) => [index, `row "${index}"\\ é 😀 \u2028 </rows>`, index / 3]);
const structuredJson = JSON.stringify({ columns: ['id', 'text', 'third'], rows, rowCount: rows.length });

/** A server whose `rendered` tool hands back `json` as its pre-rendered structured content. */
function serverWith(json: string, options: { budget?: number; middleware?: Middleware[] } = {}) {
  return createServer({
    name: 'splice',
    version: '1',
    logLevel: 'emergency',
    ...(options.middleware ? { middleware: options.middleware } : {}),
    tools: [
      defineTool({
        name: 'rendered',
        description: 'Rows rendered elsewhere.',
        output: z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.unknown())), rowCount: z.number() }),
        ...(options.budget === undefined ? {} : { budget: options.budget }),
        handler: () => preRendered('the rows', json),
      }),
    ],
  });
}

/** A stdio session on in-process streams, driven with raw lines; every line written to stdout is kept as written. */
async function stdioSession(server: ReturnType<typeof createServer>, era: (typeof protocolEras)[number]) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  let buffered = '';
  const waiting = new Map<number, (line: string) => void>();
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      lines.push(line);
      const id = (JSON.parse(line) as { id?: number }).id;
      if (id !== undefined) waiting.get(id)?.(line);
    }
  });
  const closed = serveStdio(server, { input, output, exitOnClose: false });
  let nextId = 1;
  const request = (method: string, params: Record<string, unknown>) => {
    const id = nextId++;
    const answered = new Promise<string>((resolve) => waiting.set(id, resolve));
    const withMeta = era === '2026-07-28' ? { ...params, _meta: modernMeta('splice-test') } : params;
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: withMeta })}\n`);
    return answered;
  };
  if (era === '2025-11-25') {
    await request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'splice-test', version: '1' },
    });
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }
  return {
    lines,
    call: async () => {
      const line = await request('tools/call', { name: 'rendered', arguments: {} });
      return { line, message: JSON.parse(line) as { jsonrpc: string; id: number; result: Record<string, unknown> } };
    },
    close: async () => {
      input.end();
      await closed;
    },
  };
}

describe('the stdio splice of pre-rendered structured content', () => {
  for (const era of protocolEras) {
    it(`writes the JSON text into a valid JSON-RPC line as it is (${era})`, async () => {
      const session = await stdioSession(serverWith(structuredJson), era);
      const { line, message } = await session.call();
      await session.close();
      expect(line).toContain(`"structuredContent":${structuredJson}`);
      expect(line).not.toContain(placeholderKey);
      expect(message.jsonrpc).toBe('2.0');
      expect(JSON.stringify(message.result.structuredContent)).toBe(structuredJson);
      expect(message.result.content).toEqual([{ type: 'text', text: 'the rows' }]);
      if (era === '2026-07-28') expect(message.result.resultType).toBe('complete');
    });

    it(`writes the text byte for byte, not a serialization of its value (${era})`, async () => {
      const spaced = '{"columns": ["id"], "rows": [[1], [2.50]], "rowCount": 2}';
      const session = await stdioSession(serverWith(spaced), era);
      const { line, message } = await session.call();
      await session.close();
      expect(line).toContain(`"structuredContent":${spaced}`);
      expect(message.result.structuredContent).toEqual({ columns: ['id'], rows: [[1], [2.5]], rowCount: 2 });
    });

    it(`gives middleware the parsed result, and sends what middleware leaves (${era})`, async () => {
      const seen: unknown[] = [];
      const middleware: Middleware[] = [
        async (_request, next) => {
          const result = await next();
          seen.push((result as { structuredContent?: { rowCount: number } }).structuredContent?.rowCount);
          return result;
        },
      ];
      const session = await stdioSession(serverWith(structuredJson, { middleware }), era);
      const { message } = await session.call();
      await session.close();
      expect(seen).toEqual([rows.length]);
      expect(JSON.stringify(message.result.structuredContent)).toBe(structuredJson);
    });

    it(`sends a result over the budget down the common path, cut to fit (${era})`, async () => {
      const session = await stdioSession(serverWith(structuredJson, { budget: 1000 }), era);
      const { line, message } = await session.call();
      await session.close();
      expect(line).not.toContain(structuredJson);
      expect(JSON.stringify(message.result.content)).toContain('[truncated: ');
      expect(JSON.stringify(message.result.structuredContent).length).toBeLessThan(1000);
    });
  }

  // Text a buggy (or hostile) producer could hand over: each must leave stdout one valid JSON-RPC line per message,
  // with the answer to the call and nothing else, whether the text is sent as parsed JSON or refused.
  const hostile: [string, string, 'parsed' | 'error'][] = [
    ['a second message after a line break', '{"rowCount":1}\n{"jsonrpc":"2.0","id":99,"result":{}}', 'error'],
    ['a line break between tokens of valid JSON', '{"columns":[],\n"rows":[],"rowCount":0}', 'parsed'],
    ['a carriage return', '{"columns":[],"rows":[],"rowCount":0}\r', 'parsed'],
    ['members after an early close', '{"rowCount":1},"isError":true,"x":{"y":1}', 'error'],
    ['a forged id after closing the result', '{"rowCount":1}}, "id": 99, "x": {"y":{"z":1}', 'error'],
    ['an escaped quote that is really a backslash', '{"a":"\\\\"},"isError":true,"b":{"c":"d"}', 'error'],
    ['an unterminated string', '{"a":"x}', 'error'],
    ['an array', '[1,2]', 'error'],
    ['not JSON at all', 'not json', 'error'],
    ['a tab between tokens', '{"columns":[],\t"rows":[],"rowCount":0}', 'parsed'],
  ];
  for (const era of protocolEras) {
    for (const [what, json, outcome] of hostile) {
      it(`never writes a broken or injected line for ${what} (${era})`, async () => {
        const session = await stdioSession(serverWith(json), era);
        const { message } = await session.call();
        await session.close();
        for (const line of session.lines) {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          expect(parsed.jsonrpc).toBe('2.0');
          expect(parsed.id).not.toBe(99);
        }
        expect(session.lines).toHaveLength(era === '2025-11-25' ? 2 : 1);
        if (outcome === 'parsed') {
          expect(message.result.structuredContent).toEqual(JSON.parse(json));
        } else {
          // The tool's bug, answered like an internal error; its output schema rejects an array, too.
          expect(message.result.isError).toBe(true);
          expect(message.result.structuredContent).toBeUndefined();
        }
      });
    }
  }
});

const open: HttpListening[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((listening) => listening.close()));
});

describe('transports that do not splice get the parsed object', () => {
  for (const era of protocolEras) {
    it(`in memory (${era})`, async () => {
      await using client = await connectTestClient(serverWith(structuredJson), { era });
      const result = await client.callTool('rendered');
      expect(resultText(result)).toBe('the rows');
      expect(result.structuredContent).toEqual(JSON.parse(structuredJson));
      expect(JSON.stringify(result)).not.toContain(placeholderKey);
    });
  }

  it('over HTTP, a 2025-11-25 session', async () => {
    const listening = await serveHttp(serverWith(structuredJson), { port: 0 });
    open.push(listening);
    const client = new Client({ name: 'splice-test', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
    const result = await client.callTool({ name: 'rendered', arguments: {} });
    await client.close();
    expect(result.structuredContent).toEqual(JSON.parse(structuredJson));
    expect(JSON.stringify(result)).not.toContain(placeholderKey);
  });

  it('over HTTP, a 2026-07-28 request', async () => {
    const listening = await serveHttp(serverWith(structuredJson), { port: 0 });
    open.push(listening);
    const answer = await modernCall(listening.url, 'tools/call', { name: 'rendered', arguments: {} });
    expect(answer.message?.result?.structuredContent).toEqual(JSON.parse(structuredJson));
    expect(JSON.stringify(answer.message)).not.toContain(placeholderKey);
  });
});
