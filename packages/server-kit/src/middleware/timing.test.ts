import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer } from '../create-server.js';
import { defineTool } from '../define-tool.js';
import { ToolError } from '../errors.js';
import { connectTestClient } from '../testing/index.js';
import { timing, timingBucketsMs } from './timing.js';

describe('timing', () => {
  it('keeps a histogram per tool with outcomes and percentiles, readable by code', async () => {
    const timer = timing();
    const server = createServer({
      name: 'timed',
      version: '1',
      tools: [
        defineTool({
          name: 'slow',
          description: 'Sleeps.',
          input: z.object({ ms: z.number() }),
          handler: async ({ ms }) => {
            await sleep(ms);
            return 'done';
          },
        }),
        defineTool({
          name: 'fails',
          description: 'Fails.',
          handler: () => {
            throw new ToolError('No.');
          },
        }),
      ],
      middleware: [timer],
    });
    await using client = await connectTestClient(server);
    for (let index = 0; index < 3; index++) await client.callTool('slow', { ms: 30 });
    await client.callTool('fails');
    await expect(client.callTool('nope')).rejects.toThrow();
    await expect(client.callTool('nope either')).rejects.toThrow();
    await client.client.listTools();

    const stats = timer.snapshot();
    const slow = stats.find((entry) => entry.target === 'slow');
    expect(slow).toMatchObject({ method: 'tools/call', count: 3, outcomes: { ok: 3, 'tool-error': 0, error: 0 } });
    expect(slow?.minMs).toBeGreaterThanOrEqual(25);
    expect(slow?.counts).toHaveLength(timingBucketsMs.length + 1);
    expect(slow?.counts.reduce((sum, count) => sum + count, 0)).toBe(3);
    expect(slow?.p50Ms).toBeGreaterThanOrEqual(25);
    expect(slow?.p99Ms).toBeLessThanOrEqual(slow?.maxMs ?? 0);
    expect(stats.find((entry) => entry.target === 'fails')?.outcomes['tool-error']).toBe(1);
    // unknown names share one entry with no target
    const unknown = stats.filter((entry) => entry.method === 'tools/call' && entry.target === undefined);
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.outcomes.error).toBe(2);
    expect(stats.find((entry) => entry.method === 'tools/list')?.count).toBe(1);
    timer.reset();
    expect(timer.snapshot()).toEqual([]);
  });
});
