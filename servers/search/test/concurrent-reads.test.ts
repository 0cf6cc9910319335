import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';

let directory: string;
let running: InMemoryServer;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcpkit-search-concurrent-'));
  // Just under get_document's 16 MB cap: every call reads all of it, to count its lines.
  await writeFile(join(directory, 'big.md'), `${'x'.repeat(8191)}\n`.repeat(2047));
  running = await startInMemoryServer({ directories: [directory], indexOnStart: false });
});
afterEach(async () => {
  await running.close();
  await rm(directory, { recursive: true, force: true });
});

it('24 get_document calls at once on a 16 MB file do not hold 24 files in memory at once', async () => {
  // Before: every call read its 16 MB at the same time (24 calls: over 384 MB of buffers; 40 calls of 2000 lines
  // took the process from 100 MB to 1.07 GB of RSS). Whole-file reads now take turns, a few at a time.
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  };
  const before = process.memoryUsage().arrayBuffers;
  const sampler = setInterval(sample, 2);
  const calls = Array.from({ length: 24 }, () => running.client.callTool('get_document', { path: 'big.md', limit: 1 }));
  const results = await Promise.all(calls);
  clearInterval(sampler);
  sample();
  for (const result of results) expect(result.isError).toBeFalsy();
  expect(peak - before).toBeLessThan(200 * 1024 * 1024);
});
