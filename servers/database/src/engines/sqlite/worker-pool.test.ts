import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workerProcesses } from '../../../test/worker-processes.js';
import { createSampleDatabase } from '../../sample-database.js';
import { CallStop } from './call-stop.js';
import { openSqliteEngine } from './sqlite-engine.js';
import { type PooledWorker, WorkerPool } from './worker-pool.js';

/** A worker that is only a name; `kill` marks it dead, and `exit` says it is gone (a process exits after a kill). */
class FakeWorker implements PooledWorker {
  alive = true;
  private readonly goneListeners: (() => void)[] = [];
  constructor(readonly name: string) {}
  kill(): void {
    this.alive = false;
  }
  exit(): void {
    for (const listener of this.goneListeners.splice(0)) listener();
  }
  whenGone(listener: () => void): void {
    this.goneListeners.push(listener);
  }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A pool whose starts the test ends by hand, one at a time, in the order they began. */
function poolOfFakes(size: number) {
  const starts: { resolve(worker: FakeWorker): void; reject(error: Error): void; signal: AbortSignal }[] = [];
  const pool = new WorkerPool<FakeWorker>(
    (signal) =>
      new Promise<FakeWorker>((resolve, reject) => {
        starts.push({ resolve, reject, signal });
      }),
    size,
  );
  const finish = async (index: number, worker: FakeWorker) => {
    starts[index]?.resolve(worker);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { pool, starts, finish };
}

describe('WorkerPool', () => {
  it('two calls arriving while a prewarmed worker starts wait for it instead of starting more', async () => {
    const { pool, starts, finish } = poolOfFakes(3);
    pool.prewarm();
    const first = pool.acquire(new CallStop());
    const second = pool.acquire(new CallStop());
    expect(starts).toHaveLength(1);
    const prewarmed = new FakeWorker('prewarmed');
    await finish(0, prewarmed);
    expect(await first).toBe(prewarmed);
    // The second call still waits: now, and only now, one more start begins for it.
    expect(starts).toHaveLength(2);
    pool.release(prewarmed);
    expect(await second).toBe(prewarmed);
    // The second start lands idle and is what the next call gets, with no start of its own.
    const spare = new FakeWorker('spare');
    await finish(1, spare);
    pool.release(prewarmed);
    expect(await pool.acquire(new CallStop())).toBe(prewarmed);
    expect(await pool.acquire(new CallStop())).toBe(spare);
    expect(starts).toHaveLength(2);
    pool.close();
  });

  it("hands a prewarm's start error to every call waiting for it, once; the next call starts again", async () => {
    const { pool, starts, finish } = poolOfFakes(3);
    pool.prewarm(2);
    const waiting = [pool.acquire(new CallStop()), pool.acquire(new CallStop())];
    const sentence = 'Cannot open the database damaged.sqlite: file is not a database';
    starts[0]?.reject(new Error(sentence));
    for (const call of waiting) await expect(call).rejects.toThrow(sentence);
    // Nothing is retried in the background (the prewarm's second worker is given up) ...
    await nextTurn();
    expect(starts).toHaveLength(1);
    // ... and the next call starts a worker of its own, which a repaired file then serves.
    const next = pool.acquire(new CallStop());
    expect(starts).toHaveLength(2);
    const repaired = new FakeWorker('repaired');
    await finish(1, repaired);
    expect(await next).toBe(repaired);
    pool.close();
  });

  it('gives up a start that hangs past its limit: the calls waiting hear why, and the next call starts again', async () => {
    // Each start gives up (rejects) when its signal aborts, as the engine's does by killing its process.
    const signals: AbortSignal[] = [];
    const pool = new WorkerPool<FakeWorker>(
      (signal) => {
        signals.push(signal);
        if (signals.length > 1) return Promise.resolve(new FakeWorker('second'));
        return new Promise<FakeWorker>((_resolve, reject) => {
          signal.addEventListener('abort', () =>
            reject(new Error('Cannot open the database: it did not open in time')),
          );
        });
      },
      3,
      50,
    );
    const waiting = pool.acquire(new CallStop());
    expect(signals[0]?.aborted).toBe(false);
    await expect(waiting).rejects.toThrow('it did not open in time');
    expect(signals[0]?.aborted).toBe(true);
    const next = await pool.acquire(new CallStop());
    expect(next.name).toBe('second');
    pool.close();
  });

  it('a call stopped while it waits leaves the wait; the start under way lands idle for the next call', async () => {
    const { pool, starts, finish } = poolOfFakes(3);
    const stop = new CallStop();
    const stopped = pool.acquire(stop);
    stop.stop('deadline');
    await expect(stopped).rejects.toThrow('The call stopped (deadline) while waiting for a worker.');
    expect(stop.onStop).toBeUndefined();
    const late = new FakeWorker('late');
    await finish(0, late);
    expect(await pool.acquire(new CallStop())).toBe(late);
    expect(starts).toHaveLength(1);
    pool.close();
  });

  it('after a kill, starts one replacement at a time for the calls waiting', async () => {
    const { pool, starts, finish } = poolOfFakes(2);
    const first = new FakeWorker('first');
    const call = pool.acquire(new CallStop());
    await finish(0, first);
    expect(await call).toBe(first);
    const waiting = [pool.acquire(new CallStop()), pool.acquire(new CallStop())];
    expect(starts).toHaveLength(2);
    pool.discard(first); // killed at its deadline: one start is already under way, so no second one begins
    expect(first.alive).toBe(false);
    first.exit();
    await nextTurn();
    expect(starts).toHaveLength(2);
    const second = new FakeWorker('second');
    await finish(1, second);
    expect(await waiting[0]).toBe(second);
    expect(starts).toHaveLength(3);
    const third = new FakeWorker('third');
    await finish(2, third);
    expect(await waiting[1]).toBe(third);
    pool.close();
  });

  it('starts the replacement of a killed worker only after it is gone, never inside the kill', async () => {
    const { pool, starts, finish } = poolOfFakes(2);
    pool.prewarm(2);
    const [first, second] = [new FakeWorker('first'), new FakeWorker('second')];
    await finish(0, first);
    await finish(1, second);
    const busy = await pool.acquire(new CallStop());
    pool.discard(busy);
    // The fork of a replacement would hold the thread between the deadline and the call's error: not yet.
    await nextTurn();
    expect(starts).toHaveLength(2);
    busy.exit();
    expect(starts).toHaveLength(2);
    await nextTurn();
    expect(starts).toHaveLength(3);
    pool.close();
  });

  it('closed while a worker starts: the calls waiting fail, and the worker is killed when it lands', async () => {
    const { pool, finish } = poolOfFakes(2);
    const call = pool.acquire(new CallStop());
    pool.close();
    await expect(call).rejects.toThrow('The database is closed.');
    const late = new FakeWorker('late');
    await finish(0, late);
    expect(late.alive).toBe(false);
  });

  it('closed while a worker starts: the start is told to give up at once, not when it lands', async () => {
    const { pool, starts } = poolOfFakes(2);
    pool.prewarm();
    expect(starts[0]?.signal.aborted).toBe(false);
    pool.close();
    expect(starts[0]?.signal.aborted).toBe(true);
    starts[0]?.reject(new Error('gave up'));
    await nextTurn();
  });
});

describe('SQLite worker processes', () => {
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-pool-'));
  const file = join(directory, 'company.sqlite');
  createSampleDatabase(file);
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('two calls arriving while the first worker starts are served by it and one more, not two more', async () => {
    const engine = await openSqliteEngine({ file, timeoutMs: 5000, workers: 3 });
    try {
      const signal = new AbortController().signal;
      const answers = await Promise.all([
        engine.query({ sql: 'SELECT 1', maxRows: 1 }, signal),
        engine.query({ sql: 'SELECT 2', maxRows: 1 }, signal),
      ]);
      expect(answers.map((answer) => answer.rows)).toEqual([[[1]], [[2]]]);
      // The first worker serves the first call; the second call's start begins when it lands (before the change a
      // background spare and a start for the second call began together: three processes).
      expect(workerProcesses()).toHaveLength(2);
    } finally {
      await engine.close();
    }
    await expect.poll(() => workerProcesses(), { timeout: 10_000 }).toEqual([]);
  });

  it('replaces a worker that died while idle, and the next read still answers', async () => {
    const engine = await openSqliteEngine({ file, timeoutMs: 5000, workers: 1 });
    try {
      const signal = new AbortController().signal;
      const before = await engine.query({ sql: 'SELECT 1', maxRows: 1 }, signal);
      expect(before.rows).toEqual([[1]]);
      const children = workerProcesses();
      expect(children).toHaveLength(1);
      process.kill(children[0] as number, 'SIGKILL');
      const after = await engine.query({ sql: 'SELECT count(*) FROM users', maxRows: 1 }, signal);
      expect(after.rows).toEqual([[8]]);
    } finally {
      await engine.close();
    }
  });
});
