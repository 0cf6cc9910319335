import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workerProcesses } from '../../../test/worker-processes.js';
import { createSampleDatabase } from '../../sample-database.js';
import { openSqliteEngine } from './sqlite-engine.js';

describe('SQLite worker processes', () => {
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-pool-'));
  const file = join(directory, 'company.sqlite');
  createSampleDatabase(file);
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

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
