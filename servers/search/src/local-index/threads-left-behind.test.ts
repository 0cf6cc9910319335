import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { hungMount } from '../../test/hung-mount.js';
import { leaveBehind, threadsLeftBehind } from './threads-left-behind.js';

let base: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-left-behind-'));
  mkdirSync(join(base, 'docs'));
  writeFileSync(join(base, 'docs', 'note.md'), 'a note about owls\n');
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

/** The stuck-thread process (`test/fixtures/exit-with-a-stuck-thread.mjs`), exiting `how`, its stderr a pipe. */
function stuckThreadProcess(how: string, fifo: string) {
  return spawn(
    process.execPath,
    [
      new URL('../../test/fixtures/exit-with-a-stuck-thread.mjs', import.meta.url).pathname,
      how,
      join(base, 'docs'),
      join(base, 'index.sqlite'),
    ],
    { env: { ...process.env, MCPKIT_TEST_HUNG_FIFO: fifo }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

/** How a child process ended, or `undefined` when it had not ended after `ms`, and what it wrote to stderr. */
async function endOf(child: ReturnType<typeof spawn>, ms: number) {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  const end = await Promise.race([ended, late]);
  clearTimeout(timer);
  return { end, stderr: () => stderr };
}

it.skipIf(process.platform === 'win32').each(['exit', 'drain'])(
  'a process whose index writer left a thread stuck in a read ends (%s) instead of waiting for the read for good',
  async (how) => {
    const hung = hungMount(base);
    const child = stuckThreadProcess(how, hung.fifo);
    try {
      // About a second (start, the thread's way to its read, two grace periods of 200 ms); without the kill Node waits
      // for the stuck thread as the process exits, for good.
      const { end, stderr } = await endOf(child, 20_000);
      expect(end, `the process did not end; its stderr: ${stderr()}`).toEqual({ code: null, signal: 'SIGKILL' });
      expect(stderr()).toContain('closed\n');
      expect(stderr()).toContain(
        'The index writer left a thread that would not stop (blocked in a read or a write: a hung mount?); Node would wait for it to exit, so the process ends with SIGKILL instead of exit code 0.',
      );
    } finally {
      child.kill('SIGKILL');
      hung.release();
    }
  },
  30_000,
);

it.skipIf(process.platform === 'win32')(
  'ends so too when its stderr has no reader any more (the client went away), the sentence not written',
  async () => {
    const hung = hungMount(base);
    const child = stuckThreadProcess('exit', hung.fifo);
    // Its writes to stderr fail with EPIPE from now on, the sentence at exit too: the kill must not depend on it.
    child.stderr?.destroy();
    try {
      const { end } = await endOf(child, 20_000);
      expect(end, 'the process did not end').toEqual({ code: null, signal: 'SIGKILL' });
    } finally {
      child.kill('SIGKILL');
      hung.release();
    }
  },
  30_000,
);

it('listens to the exit of the process once, however many threads are left behind', async () => {
  const listeners = process.listenerCount('exit');
  // Two thread ends to come (Node 20 has no Promise.withResolvers).
  const ends = [0, 1].map(() => {
    let resolve = () => {};
    const promise = new Promise<void>((settle) => {
      resolve = settle;
    });
    return { promise, resolve };
  });
  try {
    // Workers as far as leaveBehind uses them; the exit of this test process is vitest's, and no thread is left alive.
    for (const { promise } of ends) leaveBehind({ unref() {} } as Worker, promise);
    expect(threadsLeftBehind()).toBe(2);
    expect(process.listenerCount('exit')).toBeLessThanOrEqual(listeners + 1);
  } finally {
    for (const { resolve } of ends) resolve();
  }
  await Promise.all(ends.map(({ promise }) => promise));
  await new Promise((resolve) => setImmediate(resolve));
  expect(threadsLeftBehind()).toBe(0);
});
