import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';

/** Whole-file reads of the documents, counted where they are made: how many run at once, and at most. */
const reads = vi.hoisted(() => ({ running: 0, peak: 0, total: 0 }));
vi.mock('../src/confined-file.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/confined-file.js')>();
  return {
    ...original,
    async readConfinedFile(...args: Parameters<typeof original.readConfinedFile>) {
      reads.running++;
      reads.total++;
      reads.peak = Math.max(reads.peak, reads.running);
      try {
        return await original.readConfinedFile(...args);
      } finally {
        reads.running--;
      }
    },
  };
});

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

it('24 get_document calls at once on a 16 MB file read at most four whole files at once', async () => {
  // Before: every call read its 16 MB at the same time (24 calls: 402 MB of buffers; 40 calls of 2000 lines took the
  // process from 100 MB to 1.07 GB of RSS). Whole-file reads now take turns, four at a time.
  let peakBuffers = 0;
  const sample = () => {
    peakBuffers = Math.max(peakBuffers, process.memoryUsage().arrayBuffers);
  };
  const before = process.memoryUsage().arrayBuffers;
  const sampler = setInterval(sample, 2);
  const calls = Array.from({ length: 24 }, () => running.client.callTool('get_document', { path: 'big.md', limit: 1 }));
  const results = await Promise.all(calls);
  clearInterval(sampler);
  sample();
  for (const result of results) expect(result.isError).toBeFalsy();
  expect(reads.total).toBe(24);
  expect(reads.peak).toBeLessThanOrEqual(4);
  // A loose second bound: when garbage is collected moves this (127 to 160 MB in three runs); 24 at once held 402 MB.
  expect(peakBuffers - before).toBeLessThan(300 * 1024 * 1024);
});
