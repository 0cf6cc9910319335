import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectTestClient, resultText, spawnTestClient, type TestClient } from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesystemServer } from '../src/index.js';
import { createFixture, type Fixture } from './fixture.js';

// A second process flips root/swap between a real directory and a link to a directory outside, as fast as it can,
// while the server checks and uses paths under it: every check-then-use gap is attacked.
const swapper = `
const { existsSync, renameSync } = require('node:fs');
const [swap, parkedDirectory, parkedLink, stopFile] = process.argv.slice(1);
let flips = 0;
process.stderr.write('started ');
const deadline = Date.now() + 50000;
while (Date.now() < deadline && !(flips % 200 === 0 && existsSync(stopFile))) {
  try { renameSync(swap, parkedDirectory); renameSync(parkedLink, swap); } catch {}
  try { renameSync(swap, parkedLink); renameSync(parkedDirectory, swap); } catch {}
  flips++;
  // Short pauses let the server win some races too.
  if (flips % 50 === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
}
process.stderr.write(String(flips));
`;

describe('check-then-use races', () => {
  let fixture: Fixture;
  let child: ChildProcess | undefined;
  beforeEach(() => {
    fixture = createFixture();
    mkdirSync(join(fixture.root, 'swap'));
    writeFileSync(join(fixture.root, 'swap', 'file.txt'), 'inside\n');
    mkdirSync(join(fixture.outside, 'target'));
    writeFileSync(join(fixture.outside, 'target', 'file.txt'), 'RACE SECRET\n');
    symlinkSync(join(fixture.outside, 'target'), join(fixture.root, '.parked-link'));
  });
  afterEach(() => {
    child?.kill('SIGTERM');
    fixture.cleanup();
  });

  const bin = fileURLToPath(new URL('../bin/mcpkit-filesystem.js', import.meta.url));
  const servers: Array<[string, (root: string) => Promise<TestClient>]> = [
    [
      'in memory',
      async (root) => {
        const server = await createFilesystemServer({ directories: [root], logLevel: 'error' });
        const client = await connectTestClient(server);
        return Object.assign(client, { close: () => client.close().then(() => server.close()) });
      },
    ],
    // From the bin, grep reads on worker threads: the same rules must hold there.
    [
      'from the bin',
      (root) => spawnTestClient({ command: process.execPath, args: [bin, '--log-level', 'error', root] }),
    ],
  ];

  it.each(servers)(
    '%s: never reads, writes, creates or lists outside the roots while a directory is swapped for a link',
    async (_name, start) => {
      await using client = await start(fixture.root);
      let flips = '';
      child = spawn(process.execPath, [
        '-e',
        swapper,
        join(fixture.root, 'swap'),
        join(fixture.root, '.parked-directory'),
        join(fixture.root, '.parked-link'),
        join(fixture.base, 'stop'),
      ]);
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.stderr?.on('data', (chunk: Buffer) => {
        flips += chunk.toString();
      });
      // Attack only once the swapper runs, however slowly a loaded machine starts it.
      await new Promise<void>((resolve) => {
        const check = () => (flips.startsWith('started') ? resolve() : setTimeout(check, 10));
        check();
      });
      const texts: string[] = [];
      let succeeded = 0;
      for (let round = 0; round < 40; round++) {
        const results = await Promise.all([
          client.callTool('read_text_file', { path: 'swap/file.txt' }),
          client.callTool('read_multiple_files', { paths: ['swap/file.txt'] }),
          client.callTool('write_file', { path: `swap/written-${round}.txt`, content: 'x' }),
          client.callTool('create_directory', { path: `swap/made-${round}/deeper` }),
          client.callTool('edit_file', {
            path: 'swap/file.txt',
            edits: [{ oldText: 'e', newText: 'e', replaceAll: true }],
          }),
          client.callTool('list_directory', { path: 'swap' }),
          client.callTool('grep', { pattern: 'SECRET', path: '.', includeIgnored: true }),
          client.callTool('search_files', { path: '.', pattern: 'written-*', includeIgnored: true }),
          client.callTool('move_file', { source: 'hello.txt', destination: `swap/moved-${round}.txt` }),
        ]);
        for (const result of results) {
          if (!result.isError) succeeded++;
          texts.push(resultText(result));
        }
      }
      writeFileSync(join(fixture.base, 'stop'), '');
      await exited;
      expect(Number(flips.replace('started ', ''))).toBeGreaterThan(10);
      // Some calls must have won the race, or the test proves nothing.
      expect(succeeded).toBeGreaterThan(20);
      for (const text of texts) expect(text).not.toContain('RACE SECRET');
      const outsideEntries = readdirSync(join(fixture.outside, 'target'));
      expect(outsideEntries).toEqual(['file.txt']);
      expect(existsSync(join(fixture.outside, 'hello.txt'))).toBe(false);
    },
    60_000,
  );
});
