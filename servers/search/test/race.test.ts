import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KitServer } from '@mcpkit/server-kit';
import { connectTestClient, resultText, type TestClient } from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalIndex } from '../src/local-index/local-index.js';
import { searchIndex } from '../src/local-index/search-query.js';
import { createSearchServer } from '../src/server.js';

// A second process flips, as fast as it can, a folder between a real directory and a link to a folder outside, and
// a file between a regular file and a link to a secret outside, while the server checks and reads paths under them.
const swapper = `
const { existsSync, renameSync } = require('node:fs');
const [stopFile, ...pairs] = process.argv.slice(1);
const triples = [];
for (let index = 0; index < pairs.length; index += 3) triples.push(pairs.slice(index, index + 3));
let flips = 0;
process.stderr.write('started ');
const deadline = Date.now() + 50000;
while (Date.now() < deadline && !(flips % 200 === 0 && existsSync(stopFile))) {
  for (const [swap, parkedReal, parkedLink] of triples) {
    try { renameSync(swap, parkedReal); renameSync(parkedLink, swap); } catch {}
    try { renameSync(swap, parkedLink); renameSync(parkedReal, swap); } catch {}
  }
  flips++;
  // Short pauses let the server win some races too.
  if (flips % 50 === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
}
process.stderr.write(String(flips));
`;

let base: string;
let root: string;
let outside: string;
let child: ChildProcess | undefined;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-race-'));
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'swap'), { recursive: true });
  mkdirSync(join(outside, 'target'), { recursive: true });
  writeFileSync(join(root, 'swap', 'file.txt'), 'inside words\n');
  writeFileSync(join(outside, 'target', 'file.txt'), 'RACE SECRET words\n');
  symlinkSync(join(outside, 'target'), join(root, '.parked-link'));
  writeFileSync(join(root, 'swapfile.txt'), 'inside words\n');
  writeFileSync(join(outside, 'secret.txt'), 'RACE SECRET words\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, '.parked-file-link'));
});

afterEach(() => {
  child?.kill('SIGTERM');
  rmSync(base, { recursive: true, force: true });
});

/** Starts the swapper and resolves once it runs; `finish` stops it and returns how many flips it made. */
async function startSwapper(): Promise<{ finish: () => Promise<number> }> {
  let output = '';
  const swapping = spawn(process.execPath, [
    '-e',
    swapper,
    join(base, 'stop'),
    join(root, 'swap'),
    join(root, '.parked-directory'),
    join(root, '.parked-link'),
    join(root, 'swapfile.txt'),
    join(root, '.parked-file'),
    join(root, '.parked-file-link'),
  ]);
  child = swapping;
  const exited = new Promise((resolve) => swapping.once('exit', resolve));
  swapping.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // Attack only once the swapper runs, however slowly a loaded machine starts it.
  await new Promise<void>((resolve) => {
    const check = () => (output.startsWith('started') ? resolve() : setTimeout(check, 10));
    check();
  });
  return {
    async finish() {
      writeFileSync(join(base, 'stop'), '');
      await exited;
      return Number(output.replace('started ', ''));
    },
  };
}

describe('check-then-read races', () => {
  it('get_document and file:// resources never read outside while a folder or file is swapped for a link', async () => {
    const server: KitServer = createSearchServer({
      directories: [root],
      indexFile: ':memory:',
      indexOnStart: false,
      watch: false,
      logLevel: 'emergency',
    });
    const client: TestClient = await connectTestClient(server);
    try {
      const swapping = await startSwapper();
      const texts: string[] = [];
      let succeeded = 0;
      const read = (uri: string) =>
        client.client.readResource({ uri }).then(
          (result) => {
            succeeded++;
            texts.push(JSON.stringify(result.contents));
          },
          (error: Error) => texts.push(error.message),
        );
      for (let round = 0; round < 60; round++) {
        const results = await Promise.all([
          client.callTool('get_document', { path: 'swap/file.txt' }),
          client.callTool('get_document', { path: 'swapfile.txt' }),
          client.callTool('get_document', { path: join(root, 'swap', 'file.txt') }),
        ]);
        for (const result of results) {
          if (!result.isError) succeeded++;
          texts.push(resultText(result));
        }
        await Promise.all([
          read(pathToFileURL(join(root, 'swap', 'file.txt')).href),
          read(pathToFileURL(join(root, 'swapfile.txt')).href),
        ]);
      }
      const flips = await swapping.finish();
      expect(flips).toBeGreaterThan(10);
      // Some calls must have won the race, or the test proves nothing.
      expect(succeeded).toBeGreaterThan(20);
      for (const text of texts) expect(text).not.toContain('RACE SECRET');
    } finally {
      await client.close();
      await server.close();
    }
  }, 60_000);

  it('the indexer never indexes a file outside while a folder or file is swapped for a link', async () => {
    const swapping = await startSwapper();
    let indexed = 0;
    const leaks: string[] = [];
    for (let round = 0; round < 80; round++) {
      // A fresh index each round, so every round walks and reads the files again.
      const index = new LocalIndex({ directories: [root], indexFile: ':memory:' });
      try {
        await index.refreshAll();
        const hits = searchIndex(index.database, { query: 'words', limit: 10, offset: 0, roots: [root] }).hits;
        indexed += hits.length;
        const secret = searchIndex(index.database, { query: 'SECRET', limit: 10, offset: 0, roots: [root] }).hits;
        leaks.push(...secret.map((hit) => hit.path));
      } finally {
        await index.close();
      }
    }
    const flips = await swapping.finish();
    expect(flips).toBeGreaterThan(10);
    expect(indexed).toBeGreaterThan(20);
    expect(leaks).toEqual([]);
  }, 60_000);
});
