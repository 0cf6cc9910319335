import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTestClient, type TestClient } from '@mcpkit/server-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeLockKey } from '../src/postgres-index/postgres-writer.js';
import { postgresBackend } from './backends.js';
import { createTestDatabase, type TestDatabase } from './postgres-databases.js';

// These tests run the built bin: `pnpm build` (or turbo) first.
const bin = fileURLToPath(new URL('../bin/mcpkit-search.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/company/', import.meta.url));

/** A child process with its stderr collected, and a way to wait for a line of it. */
interface RunningCommand {
  process: ChildProcess;
  stderr(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

function run(args: string[]): RunningCommand {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    stderr: () => stderr,
    exited,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(stderr)) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`No ${pattern} on stderr within ${timeoutMs} ms; got:\n${stderr}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
}

describe.skipIf(postgresBackend.skipReason)('a team index: one indexer and two readers on one PostgreSQL', () => {
  let workspace: string;
  let documents: string;
  let database: TestDatabase;
  let indexer: RunningCommand;
  let readers: TestClient[];

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'mcpkit-search-team-'));
    documents = join(workspace, 'handbook');
    await cp(fixtures, documents, { recursive: true });
    database = await createTestDatabase();
    indexer = run(['index', '--index-url', database.url, '--watch', documents]);
    await indexer.waitFor(/Watching for changes/);
    await database.grantReader();
    // Readers run with a role that may only SELECT, and without folders of their own.
    readers = await Promise.all(
      [0, 1].map(() => spawnTestClient({ command: process.execPath, args: [bin, '--index-url', database.readerUrl] })),
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all((readers ?? []).map((reader) => reader.close()));
    indexer?.process.kill('SIGTERM');
    await indexer?.exited;
    await database?.drop();
    await rm(workspace, { recursive: true, force: true });
  });

  it('readers search and read documents as source/path, and offer no index_path', async () => {
    for (const reader of readers) {
      const text = await reader.callToolText('search', { query: "What is our company's vacation policy?", limit: 3 });
      expect(text).toMatch(/^1\. handbook\/hr\/vacation-policy\.md:\d+ \(Vacation Policy\)/);
      const document = await reader.callToolText('get_document', { path: 'handbook/hr/vacation-policy.md', limit: 3 });
      expect(document).toContain('# Vacation Policy');
      const names = (await reader.client.listTools()).tools.map((tool) => tool.name);
      expect(names).not.toContain('index_path');
      const status = await reader.callTool('index_status');
      expect(status.structuredContent).toMatchObject({ documents: 14, directories: [] });
    }
  });

  it('a file added to the folder is found by both readers within the watch interval', async () => {
    await writeFile(join(documents, 'hr', 'sabbatical.md'), '# Sabbatical\n\nAfter five years, a paid sabbatical.\n');
    for (const reader of readers) {
      await expect
        .poll(() => reader.callToolText('search', { query: 'sabbatical' }), { timeout: 10_000, interval: 100 })
        .toContain('handbook/hr/sabbatical.md:3');
    }
  });

  it('readers keep answering while the indexer rewrites every document', async () => {
    const storedDocuments = async () =>
      ((await (readers[0] as TestClient).callTool('index_status')).structuredContent as { documents: number })
        .documents;
    const before = await storedDocuments();
    const later = new Date(Date.now() + 60_000);
    const bulk = Array.from({ length: 600 }, (_, file) =>
      writeFile(join(documents, `bulk-${file}.md`), `bulk note ${file} about nothing\n`),
    );
    await Promise.all(bulk);
    for (const file of ['hr/vacation-policy.md', 'it/vpn-setup.html', 'README.md']) {
      await utimes(join(documents, file), later, later);
    }
    const latencies: number[] = [];
    const answers: string[] = [];
    const deadline = Date.now() + 20_000;
    // Until the indexer has taken in the bulk files, every answer still finds the vacation policy first.
    for (;;) {
      const started = performance.now();
      const [first, second] = await Promise.all(
        readers.map((reader) => reader.callToolText('search', { query: 'vacation policy', limit: 1 })),
      );
      latencies.push(performance.now() - started);
      answers.push(first as string, second as string);
      if ((await storedDocuments()) >= before + 600 || Date.now() > deadline) break;
    }
    expect(answers.length).toBeGreaterThan(2);
    expect(answers.length).toBeLessThan(1000); // the indexer finished before the deadline
    for (const answer of answers) expect(answer).toMatch(/^1\. handbook\/hr\/vacation-policy\.md/);
    latencies.sort((a, b) => a - b);
    // Room for a loaded machine (3-5 times slower than a quiet one, where two searches take tens of milliseconds).
    expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(1_500);
  }, 40_000);

  it('readers keep answering while `index --rebuild` builds new tables and swaps them in', async () => {
    const status = async (reader: TestClient) =>
      (await reader.callTool('index_status')).structuredContent as { documents: number };
    const before = (await status(readers[0] as TestClient)).documents;
    const admin = new pg.Client(database.url);
    await admin.connect();
    const tableId = async () =>
      (await admin.query<{ id: number }>(`SELECT 'search_passages'::regclass::oid AS id`)).rows[0]?.id;
    const oldTable = await tableId();
    const rebuild = run(['index', '--rebuild', '--index-url', database.url, documents]);
    let exited = false;
    void rebuild.exited.then(() => {
      exited = true;
    });
    const latencies: number[] = [];
    const answers: string[] = [];
    // The rebuild writes into tables of its own: until the swap, readers answer from the old, full index.
    while (!exited) {
      const started = performance.now();
      const found = await Promise.all(
        readers.map((reader) => reader.callToolText('search', { query: 'vacation policy', limit: 1 })),
      );
      latencies.push(performance.now() - started);
      answers.push(...found);
    }
    expect(await rebuild.exited, rebuild.stderr()).toBe(0);
    expect(rebuild.stderr()).toMatch(/Rebuilt: the new tables replaced the old ones/);
    expect(answers.length).toBeGreaterThan(2);
    for (const answer of answers) expect(answer).toMatch(/^1\. handbook\/hr\/vacation-policy\.md/);
    latencies.sort((a, b) => a - b);
    // Room for a loaded machine (3-5 times slower than a quiet one, where two searches take tens of milliseconds).
    expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(1_500);
    // After the swap the readers' role (its SELECT grants carried over) reads the new tables, and the watching
    // indexer writes into them.
    for (const reader of readers) expect((await status(reader)).documents).toBe(before);
    await writeFile(join(documents, 'hr', 'parental-leave.md'), '# Parental leave\n\nSixteen weeks, paid.\n');
    for (const reader of readers) {
      await expect
        .poll(() => reader.callToolText('search', { query: 'parental' }), { timeout: 10_000, interval: 100 })
        .toContain('handbook/hr/parental-leave.md');
    }
    try {
      expect(await tableId()).not.toBe(oldTable);
      const { rows } = await admin.query(`SELECT nspname FROM pg_namespace WHERE nspname = 'search_rebuild'`);
      expect(rows).toEqual([]);
    } finally {
      await admin.end();
    }
  }, 60_000);

  it('a rebuild stopped halfway leaves the index as it was', async () => {
    const admin = new pg.Client(database.url);
    await admin.connect();
    try {
      const tableId = async () =>
        (await admin.query<{ id: number }>(`SELECT 'search_passages'::regclass::oid AS id`)).rows[0]?.id;
      const oldTable = await tableId();
      const rebuild = run(['index', '--rebuild', '--index-url', database.url, documents]);
      await rebuild.waitFor(/Indexing \[-+\] 0%/);
      rebuild.process.kill('SIGTERM');
      await rebuild.exited;
      expect(rebuild.stderr()).not.toMatch(/Rebuilt/);
      expect(await tableId()).toBe(oldTable);
      const { rows } = await admin.query(`SELECT nspname FROM pg_namespace WHERE nspname = 'search_rebuild'`);
      expect(rows).toEqual([]);
      for (const reader of readers) {
        expect(await reader.callToolText('search', { query: 'vacation policy', limit: 1 })).toMatch(
          /^1\. handbook\/hr\/vacation-policy\.md/,
        );
      }
    } finally {
      await admin.end();
    }
  }, 40_000);

  it('a second writer waits for the lock and says so, then finishes', async () => {
    const holder = new pg.Client(database.url);
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [writeLockKey]);
      const second = run(['index', '--index-url', database.url, documents]);
      await second.waitFor(/Waiting: another indexer .*is writing this index/);
      await holder.query('SELECT pg_advisory_unlock($1)', [writeLockKey]);
      expect(await second.exited).toBe(0);
      expect(second.stderr()).toMatch(/unchanged/);
    } finally {
      await holder.end();
    }
  }, 40_000);
});
