import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSampleDatabase } from '../../sample-database.js';
import { openSqliteEngine } from './sqlite-engine.js';

/** The SQLite worker processes of this process, found in /proc (their parent is us, their script sqlite-process.js). */
function workerProcesses(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sqlite-process.js');
      } catch {
        return false;
      }
    })
    .map(Number);
}

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
