import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contentDigest } from '../src/local-index/content-digest.js';
import { IndexDatabase } from '../src/local-index/index-database.js';
import { searchIndex } from '../src/local-index/search-query.js';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';
import { median, probeWhile } from './responsiveness-probe.js';

let base: string;
let indexFile: string;
let running: InMemoryServer;

/** A small vocabulary: every word is in about a third of the passages, so an OR of them all matches every one. */
const words = Array.from({ length: 100 }, (_, index) => `w${index.toString(36)}x`);
const everyWord = words.join(' OR ');

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-query-'));
  indexFile = join(base, 'index.sqlite');
  // 32,000 passages written straight into an index file (about 2 s); scoring all of them for a 100-word OR held
  // the event loop for over a second before searches moved to worker threads.
  const database = new IndexDatabase(indexFile);
  let seed = 1;
  const next = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  // Real files, each of eight passages of exactly 40 lines (30 words, one a line, then 10 empty lines), stored with
  // their size, mtime and digest: the search reads the passages back from them for its snippets.
  const documents = Array.from({ length: 4000 }, (_, document) => {
    const path = join(base, `doc-${document}.md`);
    const passages = Array.from({ length: 8 }, (_, passage) => ({
      line: passage * 40 + 1,
      body: `${Array.from({ length: 30 }, () => words[Math.floor(next() * words.length)]).join('\n')}${'\n'.repeat(10)}`,
    }));
    const bytes = Buffer.from(passages.map((passage) => passage.body).join(''));
    writeFileSync(path, bytes);
    const stats = statSync(path);
    return { path, bytes, stats, passages };
  });
  database.transaction(() => {
    for (const [document, { path, bytes, stats, passages }] of documents.entries()) {
      database.putDocument({
        path,
        relativePath: `doc-${document}.md`,
        size: stats.size,
        mtimeMs: Math.trunc(stats.mtimeMs),
        title: '',
        lineCount: 320,
        text: true,
        digest: contentDigest(bytes),
        passages,
      });
    }
  });
  database.close();
  running = await startInMemoryServer({ directories: [base], indexFile, indexOnStart: false });
}, 60_000);

afterAll(async () => {
  await running.close();
  rmSync(base, { recursive: true, force: true });
});

it('a query that matches every passage of a large index leaves the server answering pings', async () => {
  const { client } = running;
  const { outcome, latencies } = await probeWhile(client, client.callTool('search', { query: everyWord }));
  expect(outcome.status).toBe('fulfilled');
  const result = (outcome as PromiseFulfilledResult<Awaited<ReturnType<typeof client.callTool>>>).value;
  expect(result.isError, resultText(result)).toBeFalsy();
  // The worker ranks exactly as the main thread does (same query, same connection settings, read-only).
  const database = new IndexDatabase(indexFile);
  try {
    const expected = searchIndex(database, { query: everyWord, limit: 10, offset: 0, roots: [base] });
    expect((result.structuredContent as { results: unknown[] }).results).toEqual(expected.hits);
  } finally {
    database.close();
  }
  expect(median(latencies)).toBeLessThan(200);
}, 60_000);

it('a cancelled query stops using CPU at once', async () => {
  const milliseconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
  const controller = new AbortController();
  let settled = false;
  const busyFrom = process.cpuUsage();
  const call = running.client.client
    .callTool({ name: 'search', arguments: { query: everyWord, limit: 11 } }, undefined, {
      signal: controller.signal,
    })
    .catch(() => undefined)
    .finally(() => {
      settled = true;
    });
  // The cancel comes once the query has used 100 ms of CPU (about a fifth of it here): work, which a loaded machine
  // stretches in time but does not shrink, where a fixed wait could find it barely started. A check every 10 ms
  // measures how late the event loop runs: a held loop would deliver the cancel late.
  let worstLate = 0;
  while (!settled && milliseconds(process.cpuUsage(busyFrom)) < 100) {
    const due = performance.now() + 10;
    await new Promise((resolve) => setTimeout(resolve, 10));
    worstLate = Math.max(worstLate, performance.now() - due);
  }
  // Positive control: the query was still running, and had used CPU, when the cancel came.
  expect(settled).toBe(false);
  controller.abort();
  await call;
  // A ping answered after the cancel was sent means the server has taken the cancel in (messages arrive in order), so
  // the window below starts at once rather than after a wait a loaded machine could outlast. Then the CPU of the
  // whole process (the worker's thread included) must stay quiet: the query needs about 500 ms of CPU in all here,
  // so left running it would use most of the 400 ms measured.
  await running.client.client.ping();
  const quietFrom = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, 400));
  const quiet = process.cpuUsage(quietFrom);
  expect(worstLate).toBeLessThan(1_000);
  expect(milliseconds(quiet)).toBeLessThan(150);
}, 30_000);

it('a prefix that stands for too much of the index is refused before SQLite expands it', async () => {
  const started = performance.now();
  const result = await running.client.callTool('search', { query: 'w*' });
  expect(result.isError).toBe(true);
  expect(resultText(result)).toMatch(/^The prefix w\* in "w\*" stands for too many indexed words \(more than 200,000/);
  // About 200 ms here, quiet or at load 6 (expanding it fully would make the search succeed, failing above).
  expect(performance.now() - started).toBeLessThan(5_000);
  const narrow = await running.client.callTool('search', { query: 'w1x*' });
  expect(narrow.isError, resultText(narrow)).toBeFalsy();
}, 30_000);
