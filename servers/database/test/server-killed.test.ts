import { readFileSync } from 'node:fs';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath, makeFixture } from './fixtures.js';
import { cpuTicks } from './worker-processes.js';

/** The child processes of `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

describe('a server killed without a word', () => {
  const fixture = makeFixture();
  afterAll(() => fixture.cleanup());

  it('leaves no SQLite worker behind: each one sees its channel close and exits', async () => {
    const client = await spawnTestClient({
      command: process.execPath,
      args: [binPath, fixture.file, '--log-level', 'emergency'],
    });
    const server = client.pid as number;
    try {
      const result = await client.callTool('query', { sql: 'SELECT count(*) AS n FROM numbers' });
      expect(result.isError).toBeFalsy();
      // The call's worker and the prewarmed spare.
      await expect.poll(() => childrenOf(server).length, { timeout: 10_000 }).toBe(2);
      const workers = childrenOf(server);
      process.kill(server, 'SIGKILL');
      await expect.poll(() => workers.filter((pid) => cpuTicks(pid) !== undefined), { timeout: 10_000 }).toEqual([]);
    } finally {
      await client.close().catch(() => {});
    }
  });

  it('leaves no worker behind that was running a runaway statement: it cannot read the closed channel, its watch ends it', async () => {
    const client = await spawnTestClient({
      command: process.execPath,
      args: [binPath, fixture.file, '--log-level', 'emergency', '--timeout-ms', '60000'],
    });
    const server = client.pid as number;
    let workers: number[] = [];
    try {
      const runaway = client.callTool('query', {
        sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
      });
      runaway.catch(() => {});
      await expect.poll(() => childrenOf(server).length, { timeout: 10_000 }).toBe(2);
      workers = childrenOf(server);
      // The statement is running (the worker's CPU climbs) before the server goes.
      await expect.poll(() => workers.some((pid) => (cpuTicks(pid) ?? 0) > 20), { timeout: 10_000 }).toBe(true);
      process.kill(server, 'SIGKILL');
      await expect.poll(() => workers.filter((pid) => cpuTicks(pid) !== undefined), { timeout: 10_000 }).toEqual([]);
    } finally {
      for (const pid of workers.filter((worker) => cpuTicks(worker) !== undefined)) process.kill(pid, 'SIGKILL');
      await client.close().catch(() => {});
    }
  });
});
