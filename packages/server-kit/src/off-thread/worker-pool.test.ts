import { getEventListeners } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectFreshBundle } from '../../test/support/fresh-bundle.js';
import { ToolError } from '../errors.js';
import { createWorkerPool, type OffThreadTask, type WorkerPool } from './worker-pool.js';

// This file runs the bundle in dist/: it fails at once, saying so, on a bundle older than the kit's files.
beforeAll(expectFreshBundle);

const tasks = new URL('../../test/fixtures/off-thread-tasks.mjs', import.meta.url);
const task = (name: string): OffThreadTask => ({ module: tasks, name });

/** Milliseconds of CPU the whole process (every thread) used over `duration` milliseconds of waiting. */
async function cpuWhileWaiting(duration: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, duration));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const taskFolder = '/proc/self/task';

/** This process's OS threads (Linux), to see a worker's thread end whatever the load; none where they cannot be listed. */
function osThreads(): string[] {
  return existsSync(taskFolder) ? readdirSync(taskFolder) : [];
}

/** The OS threads a first run on a fresh pool of one worker starts: that worker's thread. */
async function firstWorkerThreads(single: WorkerPool): Promise<string[]> {
  // libuv's file thread pool starts with the first asynchronous file read (perhaps the worker's loading of its task
  // module): start it before counting, so that its threads are not taken for the worker's.
  await readFile(fileURLToPath(import.meta.url));
  const before = new Set(osThreads());
  await single.run(task('double'), 1, { timeoutMs: 5_000 });
  const started = osThreads().filter((id) => !before.has(id));
  if (existsSync(taskFolder)) expect(started.length).toBeGreaterThan(0);
  return started;
}

/** Waits until the given OS threads have ended: a stopped run's worker is gone, not left spinning. */
async function expectThreadsEnded(threads: string[]): Promise<void> {
  await expect.poll(() => threads.filter((id) => existsSync(`${taskFolder}/${id}`)), { timeout: 10_000 }).toEqual([]);
}

/** The worst delay of a 10 ms timer while `work` runs: how long the main thread was held. */
async function worstTimerDelay(work: Promise<unknown>): Promise<number> {
  let worst = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  }, 10);
  await work.catch(() => undefined);
  clearInterval(probe);
  return worst;
}

describe('createWorkerPool', () => {
  const pool = createWorkerPool({ size: 2, maxMemoryMb: 64 });
  afterAll(() => pool.close());

  it('loads its threads on the first run, and never starts a run cancelled while they load', async () => {
    // A fresh copy of the module, whose worker threads are not loaded yet (ADR 0020).
    vi.resetModules();
    const fresh = await import('./worker-pool.js');
    const single = fresh.createWorkerPool({ size: 1, maxMemoryMb: 64 });
    try {
      const controller = new AbortController();
      const cancelled = single.run(task('count'), undefined, { timeoutMs: 5_000, signal: controller.signal });
      controller.abort();
      await expect(cancelled).rejects.toThrow('The request was cancelled.');
      // Had the cancelled run been dispatched once the threads loaded, it would have counted first on the one worker.
      await expect(single.run(task('count'), undefined, { timeoutMs: 5_000 })).resolves.toBe(1);
    } finally {
      await single.close();
    }
  });

  it('fails a run, and leaves the process alive, when a worker cannot be started', async () => {
    // A fresh copy whose threads are not loaded: the first run starts the first worker in the loading callback, where
    // a throw (the thread entry missing from the build) was an unhandled rejection that ended the server.
    vi.resetModules();
    vi.doMock('./compiled-module.js', async (importOriginal) => {
      const original = await importOriginal<typeof import('./compiled-module.js')>();
      return {
        compiledModule: (module: URL) => {
          if (module.href.endsWith('/task-worker.js')) throw new Error('no thread entry in this build');
          return original.compiledModule(module);
        },
      };
    });
    try {
      const fresh = await import('./worker-pool.js');
      const single = fresh.createWorkerPool({ size: 1 });
      try {
        await expect(single.run(task('double'), 1, { timeoutMs: 10_000 })).rejects.toThrow('no thread entry');
        await expect(single.run(task('double'), 1, { timeoutMs: 10_000 })).rejects.toThrow('no thread entry');
      } finally {
        await single.close();
      }
    } finally {
      vi.doUnmock('./compiled-module.js');
      vi.resetModules();
    }
  });

  it('runs a task off the main thread and returns its output', async () => {
    await expect(pool.run(task('double'), 21, { timeoutMs: 5_000 })).resolves.toBe(42);
    await expect(pool.run(task('later'), 'done', { timeoutMs: 5_000 })).resolves.toBe('done');
  });

  it('keeps module state between runs on one worker', async () => {
    const single = createWorkerPool({ size: 1 });
    try {
      const first = await single.run<number>(task('count'), undefined, { timeoutMs: 5_000 });
      await expect(single.run(task('count'), undefined, { timeoutMs: 5_000 })).resolves.toBe(first + 1);
    } finally {
      await single.close();
    }
  });

  it('brings a ToolError back as a ToolError, and other errors as errors', async () => {
    const refused = pool.run(task('refuse'), 'The pattern is too large.', { timeoutMs: 5_000 });
    await expect(refused).rejects.toSatisfy(ToolError.isInstance);
    await expect(refused).rejects.toThrow('The pattern is too large.');
    const crashed = pool.run(task('crash'), undefined, { timeoutMs: 5_000 });
    await expect(crashed).rejects.not.toSatisfy(ToolError.isInstance);
    await expect(crashed).rejects.toThrow('not a tool error');
  });

  it('stops a run at its time limit: the main thread stays free and the worker ends', async () => {
    const single = createWorkerPool({ size: 1, maxMemoryMb: 64 });
    try {
      const worker = await firstWorkerThreads(single);
      const run = single.run(task('spin'), undefined, { timeoutMs: 300, label: 'the diff' });
      const worst = await worstTimerDelay(run);
      await expect(run).rejects.toThrow('Stopped the diff after 0.3 s, its time limit. Ask for less.');
      // A spin on the main thread would hold it for good (the time limit's own timer could not fire), so a bound far
      // above a loaded machine's late timers (3-5 times a quiet one's) still catches it.
      expect(worst).toBeLessThan(1_000);
      // The spinning worker's thread ends (a CPU bound alone passed a left spinner on a loaded machine).
      await expectThreadsEnded(worker);
      expect(await cpuWhileWaiting(300)).toBeLessThan(100);
      await expect(single.run(task('double'), 2, { timeoutMs: 5_000 })).resolves.toBe(4);
    } finally {
      await single.close();
    }
  });

  it('stops a run when its request is cancelled', async () => {
    const single = createWorkerPool({ size: 1, maxMemoryMb: 64 });
    try {
      const worker = await firstWorkerThreads(single);
      const controller = new AbortController();
      const run = single.run(task('spin'), undefined, { timeoutMs: 60_000, signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      const started = performance.now();
      await expect(run).rejects.toThrow('The request was cancelled.');
      expect(performance.now() - started).toBeLessThan(1_000);
      await expectThreadsEnded(worker);
      expect(await cpuWhileWaiting(300)).toBeLessThan(100);
    } finally {
      await single.close();
    }
  });

  it('refuses at once when the request is already cancelled', async () => {
    await expect(pool.run(task('double'), 1, { timeoutMs: 5_000, signal: AbortSignal.abort() })).rejects.toThrow(
      'cancelled',
    );
  });

  it('reports a task over its memory limit in a sentence', async () => {
    const run = pool.run(task('hoard'), undefined, { timeoutMs: 20_000, label: 'the query' });
    await expect(run).rejects.toThrow('Stopped the query: it needed more than 64 MB of memory. Ask for less.');
    await expect(pool.run(task('double'), 3, { timeoutMs: 5_000 })).resolves.toBe(6);
  });

  it('queues runs beyond its size, and a queued run still keeps its deadline', async () => {
    const busy = [0, 1].map(() => pool.run(task('spin'), undefined, { timeoutMs: 600 }));
    const queued = pool.run(task('double'), 5, { timeoutMs: 200 });
    await expect(queued).rejects.toThrow('time limit');
    const afterwards = pool.run(task('double'), 6, { timeoutMs: 5_000 });
    await Promise.allSettled(busy);
    await expect(afterwards).resolves.toBe(12);
  });

  it('leaves no listener on a long-lived signal after thousands of runs', async () => {
    const controller = new AbortController();
    await Promise.all(
      Array.from({ length: 2_000 }, (_, index) =>
        pool.run(task('double'), index, { timeoutMs: 10_000, signal: controller.signal }),
      ),
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
