import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText, type TestClient } from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';
import { longestProbeMs, median, probeWhile } from './responsiveness-probe.js';

let base: string;
let running: InMemoryServer;
let client: TestClient;

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-glob-'));
  mkdirSync(join(base, 'docs'));
  // Long runs of one letter: a regex-backed glob with a nested group backtracks exponentially on them.
  for (let index = 0; index < 4; index++) {
    writeFileSync(join(base, 'docs', `${'a'.repeat(22 + index)}.md`), `fox number ${index}\n`);
  }
  running = await startInMemoryServer({ directories: [join(base, 'docs')] });
  client = running.client;
});

afterEach(async () => {
  await running.close();
  rmSync(base, { recursive: true, force: true });
});

it('a hostile path_glob neither holds the event loop nor errors: parentheses are literal', async () => {
  const { outcome, latencies } = await probeWhile(
    client,
    Promise.all(
      ['(a+)+b', '((a)+)+b', '(a|aa)+(a|aa)+b', '*(a+)+*b'].map((glob) =>
        client.callTool('search', { query: 'fox', path_glob: glob }),
      ),
    ),
  );
  expect(outcome.status).toBe('fulfilled');
  for (const result of (outcome as PromiseFulfilledResult<Awaited<ReturnType<TestClient['callTool']>>[]>).value) {
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toMatch(/^No results for "fox"/);
  }
  // Few probes fit in so short a run: a held loop delays most of them, so it shows in the median.
  expect(median(latencies)).toBeLessThan(200);
  expect(Math.max(0, ...latencies)).toBeLessThan(longestProbeMs);
  const ordinary = await client.callTool('search', { query: 'fox', path_glob: 'a*.md' });
  expect((ordinary.structuredContent as { results: unknown[] }).results).toHaveLength(4);
  const tooLong = await client.callTool('search', { query: 'fox', path_glob: `${'*a'.repeat(200)}` });
  expect(tooLong.isError).toBe(true);
  expect(resultText(tooLong)).toMatch(/The pattern is 400 characters long; use at most 256\./);
}, 30_000);
