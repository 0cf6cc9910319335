import { readFileSync } from 'node:fs';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath, makeFixture } from './fixtures.js';

/** The child processes of `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

/** Whether a process still runs (a zombie waiting for its parent counts as gone). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
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
      await expect.poll(() => workers.filter(running), { timeout: 10_000 }).toEqual([]);
    } finally {
      await client.close().catch(() => {});
    }
  });
});
