import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSampleDatabase } from '../../sample-database.js';

describe('loading the worker calls after the start (ADR 0205)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-worker-calls-'));
  const sample = join(directory, 'company.sqlite');
  createSampleDatabase(sample);
  const signal = new AbortController().signal;
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  // Each test imports the engine afresh, so that its import() of the worker calls meets that test's mock.
  beforeEach(() => {
    vi.resetModules();
    vi.doUnmock('./worker-calls.js');
  });

  it('fails a call whose load failed, and the next call loads them again (a failure is not kept)', async () => {
    // A chunk that cannot be read (a broken install, EMFILE): the engine's import() of the worker calls rejects.
    vi.doMock('./worker-calls.js', () => {
      throw new Error('worker calls unreadable');
    });
    const { openSqliteEngine } = await import('./sqlite-engine.js');
    const engine = await openSqliteEngine({ file: sample, timeoutMs: 5000 });
    try {
      // (vitest wraps the factory's error in its own sentence, with ours as the cause.)
      await expect(engine.query({ sql: 'SELECT 1', maxRows: 1 }, signal)).rejects.toThrow();
      vi.doUnmock('./worker-calls.js');
      const result = await engine.query({ sql: 'SELECT 1 AS one', maxRows: 1 }, signal);
      expect(result.rows).toEqual([[1]]);
    } finally {
      await engine.close();
    }
  });

  it("raises nothing unhandled when the first worker's timer fails to load them; a later call loads them", async () => {
    let loads = 0;
    vi.doMock('./worker-calls.js', () => {
      loads += 1;
      throw new Error('worker calls unreadable');
    });
    const { openSqliteEngine } = await import('./sqlite-engine.js');
    const engine = await openSqliteEngine({ file: sample, timeoutMs: 5000 });
    try {
      // The first worker's timer (100 ms) tries the load, which fails: an unhandled rejection would fail this run.
      await vi.waitFor(() => expect(loads).toBe(1), { timeout: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      vi.doUnmock('./worker-calls.js');
      const result = await engine.query({ sql: 'SELECT 1 AS one', maxRows: 1 }, signal);
      expect(result.rows).toEqual([[1]]);
    } finally {
      await engine.close();
    }
  });

  it('fails a call cancelled while they load with the cancel sentence, and runs nothing', async () => {
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    vi.doMock('./worker-calls.js', async () => {
      await arrived;
      return vi.importActual('./worker-calls.js');
    });
    const { openSqliteEngine } = await import('./sqlite-engine.js');
    const engine = await openSqliteEngine({ file: sample, timeoutMs: 5000 });
    try {
      const cancel = new AbortController();
      const call = engine.query({ sql: 'SELECT 1', maxRows: 1 }, cancel.signal);
      cancel.abort();
      arrive();
      await expect(call).rejects.toThrow('The statement was cancelled before it finished.');
      const result = await engine.query({ sql: 'SELECT 2 AS two', maxRows: 1 }, signal);
      expect(result.rows).toEqual([[2]]);
    } finally {
      await engine.close();
    }
  });

  it("counts a call's time limit from the call, the wait for the load included", async () => {
    vi.doMock('./worker-calls.js', async () => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      return vi.importActual('./worker-calls.js');
    });
    const { openSqliteEngine } = await import('./sqlite-engine.js');
    const engine = await openSqliteEngine({ file: sample, timeoutMs: 500 });
    try {
      await expect(engine.query({ sql: 'SELECT 1', maxRows: 1 }, signal)).rejects.toThrow('time limit of 500 ms');
    } finally {
      await engine.close();
    }
  });
});
