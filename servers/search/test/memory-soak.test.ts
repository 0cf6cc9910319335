import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connectTestClient, heapAfterGc, type TestClient } from '@mcpkit/server-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearchServer } from '../src/server.js';
import { type LoopbackSite, startLoopbackSite } from './loopback-site.js';

let base: string;
let site: LoopbackSite;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-soak-'));
  mkdirSync(join(base, 'docs'));
  for (let index = 0; index < 50; index++) {
    writeFileSync(join(base, 'docs', `note-${index}.md`), `# Note ${index}\n\nThe walrus counts ${index} fish.\n`);
  }
  site = await startLoopbackSite();
});

afterAll(async () => {
  await site.close();
  rmSync(base, { recursive: true, force: true });
});

it('does not grow with the number of calls (16 clients at once, 3,840 cheap calls of every kind)', async () => {
  const server = createSearchServer({
    directories: [join(base, 'docs')],
    indexFile: ':memory:',
    watch: false,
    allowPrivate: true,
    logLevel: 'emergency',
  });
  const clients: TestClient[] = [];
  try {
    for (let index = 0; index < 16; index++) clients.push(await connectTestClient(server));
    const document = pathToFileURL(join(base, 'docs', 'note-7.md')).href;
    let calls = 0;
    const round = (count: number) =>
      Promise.all(
        clients.map(async (client, number) => {
          for (let step = 0; step < count; step++) {
            const results = await Promise.all([
              client.callTool('search', { query: 'walrus fish', limit: 5, path_glob: 'note-*.md' }),
              client.callTool('get_document', { path: `note-${(number + step) % 50}.md`, limit: 3 }),
              client.callTool('index_status', {}),
              // Through the worker pool (HTML conversion) every few rounds: its waits must not leave listeners.
              step % 4 === 0
                ? client.callTool('fetch_url', { url: `${site.origin}/tiny-page` })
                : client.client.readResource({ uri: document }).then(() => ({ isError: false })),
            ]);
            for (const result of results) {
              expect(result.isError, JSON.stringify('content' in result ? result.content : result)).toBeFalsy();
            }
            calls += results.length;
          }
        }),
      );
    // One fetch first starts the conversion workers, so the first round's sixteen do not all queue behind their
    // start on a loaded machine (the conversion's deadline counts its wait for a worker).
    const first = await (clients[0] as TestClient).callTool('fetch_url', { url: `${site.origin}/tiny-page` });
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    // Code compiled, workers started, caches filled: with 20 rounds the measured 60 still paid part of that once-only
    // cost (124-204 bytes a call over 3,840 calls, 90 over 11,520: not growing with the calls).
    await round(40);
    calls = 0;
    const before = heapAfterGc();
    await round(60);
    const perCall = (heapAfterGc() - before) / calls;
    expect(calls).toBe(3840);
    // About 80 bytes here (noise); a leak of a kilobyte in any one kind of call would pass 200.
    expect(perCall, 'heap bytes kept per call').toBeLessThan(200);
  } finally {
    for (const client of clients) await client.close();
    await server.close();
  }
  // The test counts calls and heap bytes, not time: about 6 s on a quiet machine, it reached 60 s at a load average
  // of 50, so the limit only catches a hang.
}, 300_000);
