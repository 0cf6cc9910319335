import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { fts5Settings } from '../../test/fts5-settings.js';
import { type HungMount, hungMount } from '../../test/hung-mount.js';
import { IndexDatabase } from './index-database.js';
import { LocalIndex } from './local-index.js';
import { threadedSqliteWriter } from './threaded-sqlite-writer.js';
import { threadsLeftBehind } from './threads-left-behind.js';

let base: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-threaded-'));
  mkdirSync(join(base, 'docs'));
  for (let file = 0; file < 30; file++)
    writeFileSync(join(base, 'docs', `note-${file}.md`), `note ${file} about owls\n`);
  writeFileSync(join(base, 'docs', 'blob.txt'), Buffer.from([0x6f, 0x77, 0x6c, 0, 1]));
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(base, { recursive: true, force: true });
});

it('stores an index file from worker threads: this thread inserts nothing', async () => {
  const putDocument = vi.spyOn(IndexDatabase.prototype, 'putDocument');
  const index = new LocalIndex({ directories: [join(base, 'docs')], indexFile: join(base, 'index.sqlite') });
  try {
    const [report] = await index.refreshAll();
    expect(report).toMatchObject({ added: 30, binary: 1 });
    expect(index.database.counts().documents).toBe(30);
    expect(putDocument).not.toHaveBeenCalled();
  } finally {
    await index.close();
  }
});

it('fails the batches of a writer thread that cannot start, with a sentence, and starts new threads next time', async () => {
  const file = join(base, 'index.sqlite');
  const database = new IndexDatabase(file);
  const writer = threadedSqliteWriter({ database, roots: [join(base, 'docs')], maxFileSize: 1 << 20 });
  const files = [{ path: join(base, 'docs', 'note-1.md'), size: 20, mtimeMs: 0, isNew: true }];
  try {
    // The writing thread opens the file itself: a folder in its place makes it fail as it starts.
    renameSync(file, `${file}.moved`);
    mkdirSync(file);
    await expect(writer.indexFiles(join(base, 'docs'), files)).rejects.toThrow(/index writer's thread/);
    rmSync(file, { recursive: true });
    renameSync(`${file}.moved`, file);
    await expect(writer.indexFiles(join(base, 'docs'), files)).resolves.toMatchObject({
      counts: { added: 1, updated: 0, binary: 0 },
    });
    expect(database.counts().documents).toBe(1);
  } finally {
    await writer.close();
    database.close();
  }
});

it('reads with the roots it was given: a served folder swapped for a link before the threads start lets nothing in', async () => {
  const served = join(base, 'docs');
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.md'), '# Secret title\n\nthe vault code\n');
  const database = new IndexDatabase(join(base, 'index.sqlite'));
  const writer = threadedSqliteWriter({ database, roots: [served], maxFileSize: 1 << 20 });
  try {
    // A racing process: the folder checked at start becomes a link elsewhere before the first write starts the threads.
    renameSync(served, `${served}.old`);
    symlinkSync(join(base, 'outside'), served);
    const secret = { path: join(served, 'secret.md'), size: 31, mtimeMs: 0, isNew: true };
    await expect(writer.indexFiles(served, [secret])).resolves.toMatchObject({
      counts: { added: 0, updated: 0, binary: 0 },
    });
    expect(database.counts().documents).toBe(0);
  } finally {
    await writer.close();
    database.close();
  }
});

it('keeps indexing its other folders when one of them is removed', async () => {
  const kept = join(base, 'docs');
  const removed = join(base, 'gone');
  mkdirSync(removed);
  const database = new IndexDatabase(join(base, 'index.sqlite'));
  const writer = threadedSqliteWriter({ database, roots: [kept, removed], maxFileSize: 1 << 20 });
  try {
    rmSync(removed, { recursive: true });
    const note = { path: join(kept, 'note-1.md'), size: 20, mtimeMs: 0, isNew: true };
    await expect(writer.indexFiles(kept, [note])).resolves.toMatchObject({
      counts: { added: 1, updated: 0, binary: 0 },
    });
  } finally {
    await writer.close();
    database.close();
  }
});

it('puts back the settings that a bulk load which died left in the file (merging deferred, a large buffer)', async () => {
  const database = new IndexDatabase(join(base, 'index.sqlite'));
  database.setDeferredMerging(true);
  database.setPendingTermBytes(16 * 1024 * 1024);
  const writer = threadedSqliteWriter({ database, roots: [join(base, 'docs')], maxFileSize: 1 << 20 });
  try {
    const note = { path: join(base, 'docs', 'note-1.md'), size: 20, mtimeMs: 0, isNew: true };
    await writer.indexFiles(join(base, 'docs'), [note]);
    expect(fts5Settings(database)).toMatchObject({ automerge: 4, crisismerge: 64, hashsize: 1024 * 1024 });
  } finally {
    await writer.close();
    database.close();
  }
});

it('refuses writes after close instead of starting its threads again', async () => {
  const database = new IndexDatabase(join(base, 'index.sqlite'));
  const writer = threadedSqliteWriter({ database, roots: [join(base, 'docs')], maxFileSize: 1 << 20 });
  const note = { path: join(base, 'docs', 'note-1.md'), size: 20, mtimeMs: 0, isNew: true };
  try {
    await writer.indexFiles(join(base, 'docs'), [note]);
    await writer.close();
    // As a search that found a changed file after the server closed would ask.
    await expect(writer.indexFiles(join(base, 'docs'), [note])).rejects.toThrow('The index writer is closed.');
    await expect(writer.acquire(() => {})).rejects.toThrow('The index writer is closed.');
  } finally {
    await writer.close();
    database.close();
  }
});

/**
 * A local index whose preparing thread is stuck in a read on `hung`'s FIFO, with grace periods of 200 ms, and its first
 * refresh, waiting on that read when this resolves.
 */
async function indexStuckInARead(hung: HungMount, signal?: AbortSignal) {
  const index = new LocalIndex({
    directories: [join(base, 'docs')],
    indexFile: join(base, 'index.sqlite'),
    closeGraceMs: 200,
    preparationModule: hung.preparationModule,
  });
  const refresh = index.refreshAll(signal ? { signal } : {});
  refresh.catch(() => {});
  try {
    await hung.reading();
  } catch (error) {
    await index.close(); // no thread of this test left running
    throw error;
  }
  return { index, refresh };
}

/**
 * A threaded writer on the hung mount with one batch written: its preparing thread is in the read that never returns
 * by the time this resolves, and the batch (`write`) waits on it.
 */
async function writerStuckInARead(hung: HungMount, closeGraceMs: number) {
  const database = new IndexDatabase(join(base, 'index.sqlite'));
  const writer = threadedSqliteWriter({
    database,
    roots: [join(base, 'docs')],
    maxFileSize: 1 << 20,
    closeGraceMs,
    preparationModule: hung.preparationModule,
  });
  const note = { path: join(base, 'docs', 'note-1.md'), size: 20, mtimeMs: 0, isNew: true };
  const write = writer.indexFiles(join(base, 'docs'), [note]);
  write.catch(() => {});
  try {
    await hung.reading();
  } catch (error) {
    await writer.close(); // no thread of this test left running
    database.close();
    throw error;
  }
  return { database, writer, write };
}

it.skipIf(process.platform === 'win32')(
  'closes within its grace period while its preparing thread is stuck in a read, failing the batch waiting on it',
  async () => {
    const hung = hungMount(base);
    const { database, writer, write } = await writerStuckInARead(hung, 200);
    try {
      await writer.close();
      await expect(write).rejects.toThrow('The index writer is closed.');
      // Left behind until its read returns: an exit of the process meanwhile would not wait for it.
      expect(threadsLeftBehind()).toBe(1);
      hung.release();
      await vi.waitFor(() => expect(threadsLeftBehind()).toBe(0), { timeout: 5000 });
    } finally {
      hung.release();
      database.close();
    }
  },
);

it.skipIf(process.platform === 'win32')(
  'closes a local index whose refresh waits on a thread stuck in a read, within the grace periods',
  async () => {
    const hung = hungMount(base);
    try {
      const { index, refresh } = await indexStuckInARead(hung);
      const started = performance.now();
      await index.close();
      // Two grace periods of 200 ms at most, with wide room for a loaded machine; without them close never returns.
      expect(performance.now() - started).toBeLessThan(5000);
      await expect(refresh).rejects.toThrow();
    } finally {
      hung.release();
    }
  },
);

it.skipIf(process.platform === 'win32')(
  'ends a cancelled refresh whose batch waits on a thread stuck in a read, after the grace period',
  async () => {
    const hung = hungMount(base);
    const controller = new AbortController();
    const { index, refresh } = await indexStuckInARead(hung, controller.signal);
    try {
      const started = performance.now();
      controller.abort();
      // Without the grace period the run waits for the stuck batch for good, and so would every run queued after it.
      await expect(refresh).rejects.toThrow();
      expect(performance.now() - started).toBeLessThan(5000);
      await expect(index.indexer.idle()).resolves.toBeUndefined();
    } finally {
      hung.release();
      await index.close();
    }
  },
);

it.skipIf(process.platform === 'win32')(
  'returns from close when its threads end even if a thread fails while close waits for them (one wait, not two)',
  async () => {
    const hung = hungMount(base);
    // A grace period far longer than the threads take to end once released: close must not wait it out.
    const closeGraceMs = 8000;
    const { database, writer, write } = await writerStuckInARead(hung, closeGraceMs);
    const terminate = Worker.prototype.terminate;
    let failed = false;
    // Node reports a thread's last uncaught error (or its running out of heap) as it ends: here the stuck preparing
    // thread reports one just after close asked it to end, which stops the threads a second time.
    vi.spyOn(Worker.prototype, 'terminate').mockImplementation(function (this: Worker) {
      const ending = terminate.call(this);
      if (!failed) {
        failed = true;
        setImmediate(() => this.emit('error', new Error('a late failure of the stuck thread')));
      }
      return ending;
    });
    try {
      const closing = writer.close();
      await vi.waitFor(() => expect(failed).toBe(true), { timeout: 5000 });
      await new Promise((resolve) => setTimeout(resolve, 100)); // the late failure has stopped the threads again
      const released = performance.now();
      hung.release(); // the stuck read returns and the thread ends
      await closing;
      // The thread ends within milliseconds of its release; before the fix close waited out all 8 s.
      expect(performance.now() - released).toBeLessThan(closeGraceMs / 2);
      await expect(write).rejects.toThrow('The index writer is closed.');
    } finally {
      hung.release();
      database.close();
    }
  },
  20_000,
);

it.skipIf(process.platform === 'win32').each([
  ['with no threads since', false],
  ['also when new threads started since', true],
])(
  'close waits for the threads that a failure is still stopping, %s',
  async (_, startNewThreads) => {
    const hung = hungMount(base);
    // The worker threads in the order they are first sent a message: the stuck preparing thread comes first.
    const workers: Worker[] = [];
    const postMessage = Worker.prototype.postMessage;
    vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, ...args: unknown[]) {
      if (!workers.includes(this)) workers.push(this);
      return (postMessage as (...rest: unknown[]) => void).apply(this, args);
    });
    const { database, writer } = await writerStuckInARead(hung, 3000);
    try {
      const [preparation] = workers;
      preparation?.emit('error', new Error('out of heap')); // a thread failure: its stop is awaited by no one
      // Listened to after the stop, which takes the threads' earlier 'exit' listeners away.
      let ended = false;
      preparation?.once('exit', () => {
        ended = true;
      });
      if (startNewThreads) await writer.deleteDocuments([]);
      setTimeout(() => hung.release(), 500); // the stuck read returns half a second later, and the thread ends
      await writer.close();
      expect(ended, "close returned while the failed run's stuck thread is still alive").toBe(true);
    } finally {
      hung.release();
      database.close();
    }
  },
  20_000,
);
