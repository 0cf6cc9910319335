import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';
import { longestProbeMs, median, probeWhile } from './responsiveness-probe.js';

let base: string;
let running: InMemoryServer;

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-batch-'));
  // Files just under the 1 MiB size cap: one batch of 8 MB of text used to be stored in one held stretch.
  const words = Array.from({ length: 5000 }, (_, index) => `word${index}`);
  for (let file = 0; file < 24; file++) {
    const parts: string[] = [];
    for (let index = file, length = 0; length < 1_000_000; index++) {
      const word = `${words[(index * 7919) % words.length]}${index % 12 === 0 ? '\n' : ' '}`;
      parts.push(word);
      length += word.length;
    }
    writeFileSync(join(base, `big-${file}.md`), parts.join(''));
  }
  running = await startInMemoryServer({ directories: [base], indexOnStart: false });
});

afterEach(async () => {
  await running.close();
  rmSync(base, { recursive: true, force: true });
});

it('indexes megabyte files in batches while the server keeps answering', async () => {
  const { client } = running;
  const { outcome, latencies } = await probeWhile(client, client.callTool('index_path', { path: '.' }));
  expect(outcome.status).toBe('fulfilled');
  const result = (outcome as PromiseFulfilledResult<Awaited<ReturnType<typeof client.callTool>>>).value;
  expect(resultText(result)).toMatch(/24 files seen, 24 added/);
  expect(median(latencies)).toBeLessThan(200);
  // A batch held the loop for about a second before (median 940 ms); now its writes and text extraction yield every
  // 20 ms. The maximum has room for one slow probe on a loaded machine.
  expect(Math.max(...latencies)).toBeLessThan(longestProbeMs);
}, 60_000);
