import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resultText, type TestClient } from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalIndex } from '../src/local-index/local-index.js';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';
import { longestProbeMs, median, probeWhile } from './responsiveness-probe.js';

let base: string;
let running: InMemoryServer;
let client: TestClient;

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-special-'));
  mkdirSync(join(base, 'docs'));
  writeFileSync(join(base, 'docs', 'note.md'), '# Note\n\nplain words\n');
  for (let index = 0; index < 4; index++) execFileSync('mkfifo', [join(base, 'docs', `pipe-${index}.md`)]);
  running = await startInMemoryServer({ directories: [join(base, 'docs')], indexOnStart: false });
  client = running.client;
});

afterEach(async () => {
  await running.close();
  rmSync(base, { recursive: true, force: true });
});

const uriOf = (name: string) => pathToFileURL(join(base, 'docs', name)).href;

describe('special files', () => {
  it('refuses FIFOs in resources and get_document at once, and the server keeps answering', async () => {
    // Four blocked reads would take every libuv thread: the server would stop reading any file.
    const reads = Array.from({ length: 4 }, (_, index) =>
      client.client.readResource({ uri: uriOf(`pipe-${index}.md`) }).then(
        () => 'read',
        (error: Error) => error.message,
      ),
    );
    const { outcome, latencies } = await probeWhile(client, Promise.all(reads));
    expect(outcome.status).toBe('fulfilled');
    for (const message of (outcome as PromiseFulfilledResult<string[]>).value) {
      expect(message).toMatch(/Refused: .*pipe-\d\.md is a named pipe \(FIFO\), not a regular file/);
    }
    expect(median(latencies)).toBeLessThan(200);
    expect(Math.max(0, ...latencies)).toBeLessThan(longestProbeMs);
    const document = await client.callTool('get_document', { path: 'pipe-0.md' });
    expect(document.isError).toBe(true);
    expect(resultText(document)).toMatch(/pipe-0\.md is a named pipe \(FIFO\)/);
    const note = await client.client.readResource({ uri: uriOf('note.md') });
    expect(JSON.stringify(note.contents)).toContain('plain words');
  }, 20_000);

  it('skips FIFOs while indexing, also one swapped in for a file after the walk, and finishes', async () => {
    const index = new LocalIndex({ directories: [join(base, 'docs')], indexFile: ':memory:' });
    try {
      const [report] = await index.refreshAll();
      expect(report).toMatchObject({ scanned: 1, added: 1 });
      // A file the walk saw, replaced by a FIFO before it is read: the read must not wait for a writer.
      writeFileSync(join(base, 'docs', 'later.md'), 'later words\n');
      let swapped = false;
      const refreshed = index.refreshAll({
        onProgress: (progress) => {
          if (progress.phase !== 'indexing' || swapped) return;
          swapped = true;
          rmSync(join(base, 'docs', 'later.md'));
          execFileSync('mkfifo', [join(base, 'docs', 'later.md')]);
        },
      });
      const finished = await Promise.race([
        refreshed.then(() => true),
        // A read waiting for a writer never ends; the refresh itself takes well under a second on a quiet machine.
        new Promise((resolve) => setTimeout(() => resolve(false), 15_000)),
      ]);
      expect(swapped).toBe(true);
      expect(finished).toBe(true);
    } finally {
      await index.close();
    }
  }, 20_000);

  it('reads a window of a file of 15 million empty lines without holding the loop', async () => {
    writeFileSync(join(base, 'docs', 'lines.md'), Buffer.alloc(15 * 1024 * 1024, 10));
    const started = performance.now();
    const { outcome, latencies } = await probeWhile(
      client,
      client.callTool('get_document', { path: 'lines.md', offset: 1000, limit: 2 }),
    );
    const duration = performance.now() - started;
    expect(outcome.status).toBe('fulfilled');
    const text = resultText((outcome as PromiseFulfilledResult<Awaited<ReturnType<TestClient['callTool']>>>).value);
    expect(text).toMatch(
      /lines\.md \(lines 1000-1001 of 15728641\)\n1000 {2}\n1001 {2}\n\[Lines 1000-1001 of 15728641/,
    );
    expect(median(latencies)).toBeLessThan(200);
    // Splitting it whole held the loop for 0.5-1.7 s here, nearly all of the call: one probe waited for most of it.
    // The sliced scan yields every 10 ms, so no probe waits for more than a small part of the call, however slow a
    // loaded machine makes both (the file cannot grow for a wider margin: get_document reads at most 16 MB).
    expect(Math.max(0, ...latencies)).toBeLessThan(duration / 2);
  }, 20_000);

  it('refuses a huge sparse file by its size before reading it: memory does not jump', async () => {
    truncateSync(join(base, 'docs', 'note.md'), 1536 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    await expect(client.client.readResource({ uri: uriOf('note.md') })).rejects.toThrow(
      /note\.md is larger than 4 MB; read it with get_document instead\./,
    );
    const document = await client.callTool('get_document', { path: 'note.md' });
    expect(resultText(document)).toBe('note.md is larger than 16 MB; it is not read by get_document.');
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  }, 20_000);
});
