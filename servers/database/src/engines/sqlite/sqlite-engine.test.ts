import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cpuTicks, workerProcesses } from '../../../test/worker-processes.js';
import { createSampleDatabase } from '../../sample-database.js';
import { openSqliteEngine } from './sqlite-engine.js';
import { residentMegabytes } from './worker-memory.js';

describe('opening a SQLite engine', () => {
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-open-'));
  const sample = join(directory, 'company.sqlite');
  createSampleDatabase(sample);
  const signal = new AbortController().signal;
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('refuses at start, with one sentence, a file named like a database that is not one, and a directory', async () => {
    const text = join(directory, 'notes.sqlite');
    writeFileSync(text, 'These are notes, not a database.\n');
    await expect(openSqliteEngine({ file: text, timeoutMs: 5000 })).rejects.toThrow(
      `Cannot open the database ${text}: file is not a database (it does not begin with the SQLite header).`,
    );
    const short = join(directory, 'short.db');
    writeFileSync(short, 'SQLite');
    await expect(openSqliteEngine({ file: short, timeoutMs: 5000 })).rejects.toThrow(/: file is not a database/);
    const folder = join(directory, 'folder.sqlite');
    mkdirSync(folder);
    await expect(openSqliteEngine({ file: folder, timeoutMs: 5000 })).rejects.toThrow(
      `Cannot open the database ${folder}: it is a directory.`,
    );
    expect(workerProcesses()).toEqual([]);
  });

  it('serves an empty file as an empty database, and create makes one', async () => {
    const empty = join(directory, 'empty.sqlite');
    writeFileSync(empty, '');
    const engine = await openSqliteEngine({ file: empty, timeoutMs: 5000 });
    try {
      expect(await engine.listTables(signal)).toEqual([]);
    } finally {
      await engine.close();
    }
    const created = join(directory, 'created.sqlite');
    const writer = await openSqliteEngine({ file: created, create: true, writable: true, timeoutMs: 5000 });
    try {
      await writer.execute({ sql: 'CREATE TABLE t (a INTEGER)', maxRows: 1 }, signal);
      expect((await writer.listTables(signal)).map((table) => table.name)).toEqual(['t']);
    } finally {
      await writer.close();
    }
  });

  it('fails each call with one sentence while SQLite cannot open the file; a later call opens it again', async () => {
    const damaged = join(directory, 'damaged.sqlite');
    // The header passes the check at start; the rest is not a database, which only SQLite, in a worker, finds.
    writeFileSync(damaged, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4080, 0xff)]));
    const engine = await openSqliteEngine({ file: damaged, timeoutMs: 5000, workers: 1 });
    try {
      for (let call = 0; call < 2; call += 1) {
        await expect(engine.query({ sql: 'SELECT 1', maxRows: 1 }, signal)).rejects.toThrow(
          `Cannot open the database ${damaged}: file is not a database`,
        );
      }
      copyFileSync(sample, damaged);
      const users = await engine.query({ sql: 'SELECT count(*) FROM users', maxRows: 1 }, signal);
      expect(users.rows).toEqual([[8]]);
    } finally {
      await engine.close();
    }
  });

  it('closed while its first worker opens the file, leaves no worker process behind', async () => {
    const engine = await openSqliteEngine({ file: sample, timeoutMs: 5000 });
    await expect.poll(() => workerProcesses().length, { timeout: 10_000, interval: 5 }).toBe(1);
    await engine.close();
    await expect.poll(() => workerProcesses(), { timeout: 10_000 }).toEqual([]);
  });

  it('closed before its worker calls are loaded, fails a later call as closed and starts no worker', async () => {
    // The worker processes and their pool are loaded by the first worker's timer or the first call (ADR 0205): a
    // close that comes first must still hold when they arrive.
    const engine = await openSqliteEngine({ file: sample, timeoutMs: 5000 });
    await engine.close();
    await expect(engine.query({ sql: 'SELECT 1', maxRows: 1 }, signal)).rejects.toThrow('The database is closed.');
    expect(workerProcesses()).toEqual([]);
  });

  it('ends a call that runs when it is closed at once, saying the database is closed (not at its deadline)', async () => {
    const engine = await openSqliteEngine({ file: sample, timeoutMs: 60_000, workers: 1 });
    const runaway = engine.query(
      { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', maxRows: 1 },
      signal,
    );
    runaway.catch(() => {});
    // The statement runs (its worker's CPU climbs) when the engine closes.
    await expect
      .poll(() => workerProcesses().some((pid) => (cpuTicks(pid) ?? 0) > 20), { timeout: 10_000, interval: 20 })
      .toBe(true);
    const closedAt = performance.now();
    await engine.close();
    await expect(runaway).rejects.toThrow('The database is closed.');
    // Closing kills the worker; the call no longer waits for a replacement that a closed pool never starts.
    expect(performance.now() - closedAt).toBeLessThan(20_000);
    await expect.poll(() => workerProcesses(), { timeout: 10_000 }).toEqual([]);
  });

  it("lets go of a long request's memory once it has answered it: the worker's resident memory comes back down", async () => {
    // 40 MB: glibc maps each block of that size on its own and hands it back when freed (its threshold stops at
    // 32 MB), as V8 does with large strings, so resident memory shows what the worker still holds.
    const engine = await openSqliteEngine({ file: sample, timeoutMs: 60_000, workers: 1 });
    try {
      await engine.query({ sql: 'SELECT 1', maxRows: 1 }, signal);
      const [worker] = workerProcesses();
      const idle = residentMegabytes(worker as number) as number;
      const parameter = 'x'.repeat(40 * 1024 * 1024);
      const answer = await engine.query({ sql: 'SELECT length(?) AS n', params: [parameter], maxRows: 1 }, signal);
      expect(answer.rows).toEqual([[parameter.length]]);
      await engine.query({ sql: 'SELECT 1', maxRows: 1 }, signal);
      // 41-44 MB over idle were still held after one collection (the request's string; before that, the reading
      // loop's own frame kept the buffer from it); 4 MB after two.
      await expect
        .poll(() => (residentMegabytes(worker as number) as number) - idle, { timeout: 10_000, interval: 100 })
        .toBeLessThan(20);
    } finally {
      await engine.close();
    }
  });
});
