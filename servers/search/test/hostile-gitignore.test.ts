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
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-gitignore-'));
  const docs = join(base, 'docs');
  // Tens of thousands of wildcard rules: the ignore package tests every one of them against every path.
  const rules = Array.from({ length: 30_000 }, (_, index) => `*x${index}*y*z*/**/*.q${index}`);
  rules.push('ignored-*.md', `${'*a'.repeat(400)}.md`);
  mkdirSync(join(docs, 'deeper'), { recursive: true });
  writeFileSync(join(docs, '.gitignore'), rules.join('\n'));
  writeFileSync(join(docs, 'deeper', '.gitignore'), rules.slice(0, 5000).join('\n'));
  for (let index = 0; index < 150; index++) {
    writeFileSync(join(docs, `note-${index}.md`), `walrus note ${index}\n`);
    writeFileSync(join(docs, 'deeper', `note-${index}.md`), `walrus deeper note ${index}\n`);
  }
  running = await startInMemoryServer({ directories: [docs], indexOnStart: false });
  client = running.client;
});

afterEach(async () => {
  await running.close();
  rmSync(base, { recursive: true, force: true });
});

it('indexing under a .gitignore of tens of thousands of wildcard rules keeps the server answering', async () => {
  const { outcome, latencies } = await probeWhile(client, client.callTool('index_path', { path: '.' }));
  expect(outcome.status).toBe('fulfilled');
  const result = (outcome as PromiseFulfilledResult<Awaited<ReturnType<TestClient['callTool']>>>).value;
  expect(result.isError).toBeFalsy();
  expect(resultText(result)).toMatch(/302 files seen, 302 added/);
  expect(resultText(result)).toMatch(/Note: .*\.gitignore: 29002 of 30002 rules were not applied \(at most 1000 rules/);
  expect(median(latencies)).toBeLessThan(200);
  expect(Math.max(0, ...latencies)).toBeLessThan(longestProbeMs);
  const status = resultText(await client.callTool('index_status', {}));
  expect(status).toMatch(/Note: .*deeper\/\.gitignore: 4000 of 5000 rules were not applied/);
}, 60_000);
