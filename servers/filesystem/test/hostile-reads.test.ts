import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectTestClient, resultText, type TestClient } from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesystemServer } from '../src/index.js';
import { createFixture, type Fixture } from './fixture.js';
import { cpuDuring, median, probeWhile } from './responsiveness.js';

// Hostile files in the folder: special files that block an open or a read, and huge sparse files.
describe('hostile files', () => {
  let fixture: Fixture;
  const clients: TestClient[] = [];
  let close: () => Promise<void> = async () => {};
  beforeEach(() => {
    fixture = createFixture();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await close();
    fixture.cleanup();
  });
  const start = async () => {
    const server = await createFilesystemServer({ directories: [fixture.root], logLevel: 'error' });
    close = () => server.close();
    const first = await connectTestClient(server);
    const second = await connectTestClient(server);
    clients.push(first, second);
    return { client: first, probe: second };
  };

  it('refuses FIFOs in every tool that opens files, many at once, without blocking a thread', async () => {
    const { client, probe } = await start();
    const fifos = Array.from({ length: 6 }, (_, index) => `fifo-${index}`);
    for (const name of fifos) execFileSync('mkfifo', [join(fixture.root, name)]);
    writeFileSync(join(fixture.root, '.gitignore'), ''); // a FIFO .gitignore below is tried by every walk
    execFileSync('mkdir', [join(fixture.root, 'piped')]);
    execFileSync('mkfifo', [join(fixture.root, 'piped', '.gitignore')]);
    const calls = fifos.flatMap((name) => [
      client.callTool('read_text_file', { path: name }),
      client.callTool('read_text_file', { path: name, tail: 2 }),
      client.callTool('read_media_file', { path: name }),
      client.callTool('read_multiple_files', { paths: [name, 'hello.txt'] }),
      client.callTool('edit_file', { path: name, edits: [{ oldText: 'a', newText: 'b' }] }),
      client.callTool('write_file', { path: name, content: 'x' }),
      client.callTool('grep', { pattern: 'x', path: name }),
      client.client.readResource({ uri: `file://${join(fixture.root, name)}` }).then(
        () => ({ isError: false, content: [] }),
        (error: Error) => ({ isError: true, content: [{ type: 'text' as const, text: error.message }] }),
      ),
    ]);
    calls.push(client.callTool('grep', { pattern: 'needle', path: '.', includeIgnored: false }));
    const all = Promise.all(calls);
    const latencies = await probeWhile(probe, all);
    const results = await all;
    // Every opening call is refused with a sentence (the grep over the folder just skips the FIFOs).
    const grepAll = results.pop();
    expect(grepAll && resultText(grepAll)).toMatch(/needle/);
    for (const [index, result] of results.entries()) {
      const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      // read_multiple_files reports a failed file inside its result and reads the others.
      if (index % 8 === 3) expect(text).toMatch(/named pipe[\s\S]*hello/);
      else expect(result.isError, text).toBe(true);
    }
    expect(resultText(results[0] as never)).toMatch(/named pipe/);
    expect(median(latencies)).toBeLessThan(200);
    expect(Math.max(...latencies)).toBeLessThan(2_500); // one slow probe on a loaded machine is not a held loop
    // The libuv threads are all free: more file reads still answer at once.
    const after = await Promise.all(
      Array.from({ length: 8 }, () => client.callToolText('read_text_file', { path: 'hello.txt' })),
    );
    expect(after).toEqual(Array(8).fill('hello\nworld'));
  });

  it('stops reading a huge sparse file at a deep line offset within 200 ms of a cancel', async () => {
    const { client, probe } = await start();
    const file = join(fixture.root, 'sparse.txt');
    // Text at the start (so it is not taken for binary), then a 20 GB hole read back as zeros.
    const fd = openSync(file, 'w');
    writeSync(fd, 'a line\n'.repeat(20_000));
    closeSync(fd);
    execFileSync('truncate', ['-s', '20G', file]);
    const controller = new AbortController();
    let settled = false;
    // Eight reads at once: one alone scans its 256 MB in well under the 600 ms window on an idle machine, which
    // would leave nothing to cancel.
    const reading = Promise.all(
      Array.from({ length: 8 }, () =>
        client.client
          .callTool({ name: 'read_text_file', arguments: { path: 'sparse.txt', offset: 1_000_000_000 } }, undefined, {
            signal: controller.signal,
          })
          .catch((error: Error) => error),
      ),
    ).finally(() => {
      settled = true;
    });
    const [latencies, busyCpuMs] = await Promise.all([
      probeWhile(probe, sleep(600)),
      sleep(100).then(() => cpuDuring(500)),
    ]);
    // Positive control: the read was still going when cancelled, and spending CPU; otherwise the quiet CPU below
    // would prove nothing.
    expect(settled, 'the read ended on its own before the cancel').toBe(false);
    controller.abort();
    for (const outcome of await reading) expect(outcome).toBeInstanceOf(Error);
    await sleep(200);
    const cpuMs = await cpuDuring(500);
    expect(median(latencies)).toBeLessThan(200);
    expect(busyCpuMs, 'CPU ms in 500 ms while reading').toBeGreaterThan(cpuMs * 2 + 10);
    // Still reading would spend most of the window on CPU; stopped, the process is idle.
    expect(cpuMs, `CPU ms in 500 ms after the cancel`).toBeLessThan(100);
  });

  it('refuses a deep line offset of a huge sparse file after a bounded read', async () => {
    const { client } = await start();
    const file = join(fixture.root, 'sparse.txt');
    const fd = openSync(file, 'w');
    writeSync(fd, 'a line\n'.repeat(20_000));
    closeSync(fd);
    execFileSync('truncate', ['-s', '20G', file]);
    const started = performance.now();
    const result = await client.callTool('read_text_file', { path: 'sparse.txt', offset: 1_000_000_000 });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/beyond the first 256\.00 MB/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
