import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createSampleDatabase } from '../../sample-database.js';

describe('loading the worker calls after the start (ADR 0205)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-worker-calls-'));
  const sample = join(directory, 'company.sqlite');
  createSampleDatabase(sample);
  const signal = new AbortController().signal;
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

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
});
