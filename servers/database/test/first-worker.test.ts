import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath, makeFixture } from './fixtures.js';

describe('the first SQLite worker of mcpkit-database', () => {
  const fixture = makeFixture();
  afterAll(() => fixture.cleanup());

  it('is not waited for by initialize and tools/list; the first query waits for it', async () => {
    const go = join(fixture.directory, 'go');
    const gate = join(fixture.directory, 'hold-worker.cjs');
    // Preloaded into every process of the server: a worker process sleeps until the test writes the go file.
    writeFileSync(
      gate,
      `if (process.argv[1] && process.argv[1].endsWith('sqlite-process.js')) {
         const cell = new Int32Array(new SharedArrayBuffer(4));
         while (!require('node:fs').existsSync(${JSON.stringify(go)})) Atomics.wait(cell, 0, 0, 20);
       }`,
    );
    await using client = await spawnTestClient({
      command: process.execPath,
      args: [binPath, '--timeout-ms', '60000', fixture.file],
      env: { NODE_OPTIONS: `--require ${gate}` },
    });
    // Without the change the server waits for its worker before it answers initialize: this line is never reached.
    const { tools } = await client.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('query');
    expect(existsSync(go)).toBe(false);
    const answer = client.callTool('query', { sql: 'SELECT count(*) AS n FROM numbers' });
    writeFileSync(go, '');
    expect((await answer).structuredContent).toMatchObject({ rows: [[2000]] });
  });
});
