import type { Worker } from 'node:worker_threads';
import { compiledModule } from '@mcpkit/server-kit/compiled-module';
import { endBulkLoad } from './bulk-load-end.js';
import type { IndexDatabase } from './index-database.js';
import type { BatchCounts, FileWriter, WrittenBatch } from './index-writer.js';
import type { PreparationRequest, PreparationWorkerData } from './preparation-worker.js';
import { settlesWithin } from './settles-within.js';
import { StoredFileCursor } from './stored-file-cursor.js';
import { leaveBehind } from './threads-left-behind.js';
import type { WriterCommand, WriterCommandBody, WriterReply, WriterWorkerData } from './writer-worker.js';

/** How the threads of an SQLite index file's writer are set up. */
export interface ThreadedSqliteWriterOptions {
  /** The index file's connection on this thread: it reads what is stored (`storedFilesUnder`), never writes. */
  database: IndexDatabase;
  /** The allowed directories (real paths). */
  roots: readonly string[];
  /** Files larger than this many bytes are not read. */
  maxFileSize: number;
  /**
   * How long `close`, and a run that stopped, wait for the threads to finish (default 5 s): a thread blocked in a read
   * on a hung mount does not end until the read returns, and is left behind rather than waited for (the index and
   * its callers go on; Node waits for every thread as the process exits, so a process exiting while such a thread is
   * still stuck ends with SIGKILL instead: ADR 0308).
   */
  closeGraceMs?: number;
  /** The preparing thread's module; the package's own unless a test needs a thread stuck in a read. */
  preparationModule?: URL;
}

/** `close`'s default wait for the threads to end. */
const defaultCloseGraceMs = 5000;

/** An SQLite writer whose reading and writing run on two worker threads; `close` stops them. */
export interface ThreadedSqliteWriter extends FileWriter {
  close(): Promise<void>;
}

interface Threads {
  preparation: Worker;
  writer: Worker;
  /** Replies awaited: commands by id, batches by number (written, then committed). */
  commands: Map<number, { resolve(result: unknown): void; reject(error: Error): void }>;
  batches: Map<number, { resolve(counts: BatchCounts): void; reject(error: Error): void }>;
  commits: Map<number, { resolve(): void; reject(error: Error): void }>;
  /** Set by the first `stopThreads`: every later stop of these threads waits on this one. */
  stopped?: Promise<void>;
}

/**
 * Heap limits of the two threads, so the memory of a run is bounded whatever the corpus: a batch holds about 2 MB of
 * files plus one file of up to the size cap, read, extracted and split (a few copies of it), and young garbage is
 * collected often. A thread over its limit stops with an error that fails the run, not the process.
 */
function heapLimits(maxFileSize: number) {
  const capMb = Math.ceil(maxFileSize / (1024 * 1024));
  return { maxOldGenerationSizeMb: 48 + 8 * capMb, maxYoungGenerationSizeMb: 8 };
}

/**
 * The writer of an SQLite index file on two worker threads, a pipeline: one reads, extracts and splits a batch of
 * changed files while the other stores the batch before it (FTS5's tokenizing and merging, most of a build). On two
 * cores a build takes about the longer of the two instead of their sum, and a serving process's event loop runs
 * neither. The threads start with the first write and stay (idle, not keeping the process alive) until `close`.
 */
export function threadedSqliteWriter(options: ThreadedSqliteWriterOptions): ThreadedSqliteWriter {
  const { database } = options;
  let threads: Promise<Threads> | undefined;
  let current: Threads | undefined;
  let nextId = 0;
  let nextBatch = 0;
  /** Set by `close`: a write after it is refused instead of starting threads again. */
  let closed = false;
  /** Stops not awaited by anyone (a thread's failure, a give-up): close waits for them too. */
  const stopping = new Set<Promise<void>>();
  const closeGraceMs = options.closeGraceMs ?? defaultCloseGraceMs;

  const pendingCount = (started: Threads) => started.commands.size + started.batches.size;
  /** Fails every reply still awaited from `started`'s threads. */
  const failWaiting = (started: Threads, error: Error) => {
    for (const waiting of [...started.commands.values(), ...started.batches.values(), ...started.commits.values()]) {
      waiting.reject(error);
    }
    started.commands.clear();
    started.batches.clear();
    started.commits.clear();
  };
  /** Idle threads never keep the process alive; a thread with work awaited does. */
  const holdWhileBusy = (started: Threads) => {
    for (const worker of [started.preparation, started.writer]) {
      if (pendingCount(started) > 0) worker.ref();
      else worker.unref();
    }
  };

  /**
   * Fails what waits on `started`'s threads with `error` and stops them; the next write starts new ones. Settles once
   * both threads have ended, or after the grace period: a thread blocked in a system call ends only when the call
   * returns, so it is left behind (`leaveBehind`: Node waits for every thread, referenced or not, as the process
   * exits, so an exit while it is still stuck ends the process with SIGKILL). No one awaits a stop for a thread's
   * failure or a stopped run's give-up; close awaits every stop still under way (`stopping`), those too, so that no
   * thread of this writer runs on after it returns.
   *
   * Stops of the same threads share one wait: a thread that fails while close waits (Node reports a thread's last
   * uncaught error, or its running out of heap, as it exits) stops them again, and that second stop must not take away
   * the first one's `terminate()` listeners, which would leave close waiting out its grace period after the threads
   * ended.
   */
  function stopThreads(started: Threads, error: Error): Promise<void> {
    failWaiting(started, error);
    if (current === started) {
      current = undefined;
      threads = undefined;
    }
    if (!started.stopped) {
      const stopped = endThreads(started);
      started.stopped = stopped;
      stopping.add(stopped);
      void stopped.then(() => stopping.delete(stopped));
    }
    return started.stopped;
  }

  /**
   * Terminates `started`'s threads once; settles when both ended or after the grace period. A thread still running
   * then is left behind: the process's exit does not wait for it (`leaveBehind`).
   */
  async function endThreads(started: Threads): Promise<void> {
    const workers = [started.preparation, started.writer];
    const ending = workers.map((worker) => {
      // Their exit is this stop's own now, not a failure to report ('error' stays listened to: unheard, it throws).
      worker.removeAllListeners('exit');
      // `terminate()` refs the thread until it ends (Node 20 and 22), whatever was set before: one left behind is
      // unref'd after it (`leaveBehind`).
      return { worker, terminated: worker.terminate() };
    });
    if (await settlesWithin(Promise.all(ending.map(({ terminated }) => terminated)), closeGraceMs)) return;
    // The one of the two that did end is forgotten as soon as it is recorded (its `terminated` has settled).
    for (const { worker, terminated } of ending) leaveBehind(worker, terminated);
  }

  async function start(): Promise<Threads> {
    const { MessageChannel, Worker } = await import('node:worker_threads');
    const channel = new MessageChannel();
    const resourceLimits = heapLimits(options.maxFileSize);
    // Both found before either thread starts: a missing one must not leave the other running.
    const preparationModule =
      options.preparationModule ?? compiledModule(new URL('./preparation-worker.js', import.meta.url));
    const writerModule = compiledModule(new URL('./writer-worker.js', import.meta.url));
    const preparationData: PreparationWorkerData = {
      roots: [...options.roots],
      maxFileSize: options.maxFileSize,
      writer: channel.port1,
    };
    const writerData: WriterWorkerData = { indexFile: database.file, preparation: channel.port2 };
    const started: Threads = {
      preparation: new Worker(preparationModule, {
        workerData: preparationData,
        transferList: [channel.port1],
        resourceLimits,
      }),
      writer: new Worker(writerModule, {
        workerData: writerData,
        transferList: [channel.port2],
        resourceLimits,
      }),
      commands: new Map(),
      batches: new Map(),
      commits: new Map(),
    };
    current = started;
    started.writer.on('message', (reply: WriterReply) => {
      if ('committed' in reply || 'rolledBack' in reply) {
        const lost = 'rolledBack' in reply ? new Error(`A later batch failed: ${reply.error}`) : undefined;
        for (const batch of 'committed' in reply ? reply.committed : reply.rolledBack) {
          const waiting = started.commits.get(batch);
          started.commits.delete(batch);
          if (lost) waiting?.reject(lost);
          else waiting?.resolve();
        }
      } else if ('id' in reply) {
        const waiting = started.commands.get(reply.id);
        started.commands.delete(reply.id);
        if (reply.error !== undefined) waiting?.reject(new Error(reply.error));
        else waiting?.resolve(reply.result);
      } else {
        const waiting = started.batches.get(reply.batch);
        started.batches.delete(reply.batch);
        if ('error' in reply) {
          const error = new Error(reply.error);
          waiting?.reject(error);
          started.commits.get(reply.batch)?.reject(error);
          started.commits.delete(reply.batch);
        } else {
          waiting?.resolve({ added: reply.added, updated: reply.updated, binary: reply.binary });
        }
      }
      holdWhileBusy(started);
    });
    for (const worker of [started.preparation, started.writer]) {
      worker.on('error', (error) => {
        void stopThreads(started, new Error(`The index writer's thread failed: ${error.message}`));
      });
      worker.on('exit', (code) => {
        void stopThreads(started, new Error(`The index writer's thread stopped (exit code ${code}).`));
      });
    }
    holdWhileBusy(started);
    return started;
  }

  function threadsNow(): Promise<Threads> {
    // A search finding a changed file after close would re-index it: refused, no thread started.
    if (closed) return Promise.reject(new Error('The index writer is closed.'));
    // A start that fails (a module missing) is tried again by the next write.
    threads ??= start().catch((error: unknown) => {
      threads = undefined;
      throw error;
    });
    return threads;
  }

  async function command(body: WriterCommandBody): Promise<unknown> {
    return send(await threadsNow(), body);
  }

  function send(started: Threads, body: WriterCommandBody): Promise<unknown> {
    const id = nextId++;
    const result = new Promise<unknown>((resolve, reject) => started.commands.set(id, { resolve, reject }));
    holdWhileBusy(started);
    started.writer.postMessage({ id, ...body } satisfies WriterCommand);
    return result;
  }

  return {
    async storedFilesUnder(_root, directory) {
      return new StoredFileCursor(database, directory);
    },
    async indexFiles(root, files) {
      const started = await threadsNow();
      const batch = nextBatch++;
      // A bulk load's batches share a transaction: written is not committed (a later failure rolls them back).
      const committed = new Promise<void>((resolve, reject) => started.commits.set(batch, { resolve, reject }));
      committed.catch(() => {}); // a batch that fails also fails its written promise, which the caller awaits first
      const written = new Promise<WrittenBatch>((resolve, reject) =>
        started.batches.set(batch, { resolve: (counts) => resolve({ counts, committed }), reject }),
      );
      holdWhileBusy(started);
      started.preparation.postMessage({ batch, root, files: [...files] } satisfies PreparationRequest);
      return written;
    },
    abandonStuckBatches() {
      const started = current;
      const unwritten = started ? [...started.batches.keys()] : [];
      if (!started || unwritten.length === 0) return;
      // Only these batches: a later run's own batches may be under way when the grace period ends.
      setTimeout(() => {
        if (current !== started || !unwritten.some((batch) => started.batches.has(batch))) return;
        const seconds = closeGraceMs / 1000;
        void stopThreads(
          started,
          new Error(
            `The index writer's threads did not finish a batch within ${seconds} s of the run stopping (a read stuck on a hung mount?); they were stopped.`,
          ),
        );
      }, closeGraceMs).unref();
    },
    async deleteDocuments(ids) {
      await command({ command: 'delete', ids: [...ids] });
    },
    async acquire() {
      if (closed) throw new Error('The index writer is closed.');
      return async () => {};
    },
    async startBulkLoad() {
      await command({ command: 'defer-merging', deferred: true });
    },
    async finishBulkLoad(keepGoing) {
      // One step per message to the writing thread.
      await endBulkLoad(command, keepGoing);
    },
    async close() {
      closed = true;
      const starting = threads;
      threads = undefined;
      current = undefined;
      // Threads that failed to start have nothing to close (and the database must still be closed after this).
      const started = await starting?.catch(() => undefined);
      try {
        // The writing thread commits and closes the file; a thread that does not answer in time is stopped anyway.
        if (started) await settlesWithin(send(started, { command: 'close' }), closeGraceMs);
      } finally {
        // What still waits (a batch the preparing thread never finished reading) fails, so the run waiting on it ends.
        if (started) await stopThreads(started, new Error('The index writer is closed.'));
        // Threads that an earlier failure or give-up is still stopping, with or without new threads since.
        await Promise.all(stopping);
      }
    },
  };
}
