import type { ServerResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createServer } from '../create-server.js';
import { defineTool } from '../define-tool.js';
import { connectTestClient, protocolEras, resultText } from '../testing/index.js';
import type { MiddlewareRequest } from './middleware.js';
import { rateLimit } from './rate-limit.js';

const echo = defineTool({ name: 'echo', description: 'Echoes.', handler: () => 'ok' });
const other = defineTool({ name: 'other', description: 'Another tool.', handler: () => 'ok' });

/** A tools/call request as middleware sees it. */
function call(caller: string, target = 'echo'): MiddlewareRequest {
  return {
    method: 'tools/call',
    target,
    arguments: {},
    definition: [echo, other].find((tool) => tool.name === target),
    params: { name: target },
    caller: { key: caller, client: { supports: () => false } },
    era: 'legacy',
    signal: new AbortController().signal,
  };
}

const answered = async (): Promise<ServerResult> => ({ content: [{ type: 'text', text: 'ok' }] });
const refused = (result: ServerResult) => (result as { isError?: boolean }).isError === true;

describe('rateLimit', () => {
  it('lets a burst through, refuses the next call saying when to retry, and refills over time', async () => {
    let time = 0;
    const limit = rateLimit({ limit: 2, intervalMs: 1000, now: () => time });
    expect(refused(await limit(call('a'), answered))).toBe(false);
    expect(refused(await limit(call('a'), answered))).toBe(false);
    const third = await limit(call('a'), answered);
    expect(refused(third)).toBe(true);
    expect(resultText(third as never)).toBe(
      'Too many calls to the tool "echo": the limit is 2 calls a second per caller and tool. Try again in 0.5 seconds.',
    );
    time = 499;
    expect(refused(await limit(call('a'), answered))).toBe(true);
    time = 500;
    expect(refused(await limit(call('a'), answered))).toBe(false);
  });

  it('keeps a bucket per caller and per tool, or per caller only', async () => {
    const time = 0;
    const perTool = rateLimit({ limit: 1, now: () => time });
    expect(refused(await perTool(call('a'), answered))).toBe(false);
    expect(refused(await perTool(call('b'), answered))).toBe(false);
    expect(refused(await perTool(call('a', 'other'), answered))).toBe(false);
    expect(refused(await perTool(call('a'), answered))).toBe(true);
    const perCaller = rateLimit({ limit: 1, per: 'caller', now: () => time });
    expect(refused(await perCaller(call('a'), answered))).toBe(false);
    expect(refused(await perCaller(call('a', 'other'), answered))).toBe(true);
  });

  it('answers other methods with a JSON-RPC error carrying retryAfterMs', async () => {
    const limit = rateLimit({ limit: 1, intervalMs: 60_000, methods: ['prompts/get'], now: () => 0 });
    const prompt = { ...call('a', 'greet'), method: 'prompts/get' as const };
    await limit(prompt, answered);
    await expect((async () => limit(prompt, answered))()).rejects.toMatchObject({
      code: -32000,
      message:
        'Too many prompts/get requests for "greet": the limit is 1 call a minute per caller and tool. Try again in 60 seconds.',
      data: { retryAfterMs: 60_000 },
    });
    expect(refused(await limit(call('a'), answered))).toBe(false);
  });

  it('forgets full buckets when there are too many', async () => {
    let time = 0;
    const limit = rateLimit({ limit: 1, maxBuckets: 2, now: () => time });
    await limit(call('a'), answered);
    await limit(call('b'), answered);
    time = 5000;
    await limit(call('c'), answered);
    // a's bucket was full again and forgotten: a new one, full
    expect(refused(await limit(call('a'), answered))).toBe(false);
  });

  it('refuses bad options at once', () => {
    expect(() => rateLimit({ limit: 0 })).toThrow(/limit must be a positive number/);
  });

  it.each(protocolEras)('holds each caller to its limit under 200 concurrent calls (%s)', async (era) => {
    const server = createServer({
      name: 'limited',
      version: '1',
      tools: [echo],
      middleware: [
        rateLimit({
          limit: 10,
          intervalMs: 60_000,
          // A 2025-11-25 connection is a caller of its own; 2026-07-28 requests without a token are all anonymous, so
          // there the test names its callers itself.
          ...(era === '2026-07-28'
            ? { callerKey: (request) => String((request.params._meta as Record<string, unknown>).caller) }
            : {}),
        }),
      ],
    });
    await using first = await connectTestClient(server, { era });
    await using second = await connectTestClient(server, { era });
    const burst = (client: typeof first, caller: string) =>
      Promise.all(
        Array.from({ length: 100 }, () => client.client.callTool({ name: 'echo', arguments: {}, _meta: { caller } })),
      );
    const [ones, twos] = await Promise.all([burst(first, 'one'), burst(second, 'two')]);
    for (const results of [ones, twos]) {
      expect(results.filter((result) => !result.isError)).toHaveLength(10);
      expect(results.filter((result) => result.isError)).toHaveLength(90);
    }
  });
});
