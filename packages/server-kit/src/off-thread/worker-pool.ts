import type { Worker } from 'node:worker_threads';
import { ToolError } from '../errors.js';
import type { TaskReply, TaskRequest } from './task-protocol.js';

/** A function to run off the main thread: the export `name` of the compiled ES module at `module`. */
export interface OffThreadTask {
  /** The task module, usually `new URL('./my-task.js', import.meta.url)`. */
  module: URL;
  /** The exported function to call with the input; it may return a promise. */
  name: string;
}

/** Limits of one off-thread run. */
export interface OffThreadOptions {
  /** The request's signal: aborting it terminates the worker at once. */
  signal?: AbortSignal;
  /** Time from the call (queueing included) after which the worker is terminated. */
  timeoutMs: number;
  /** What the step is, for the error sentences ("the diff", "converting the page"). */
  label?: string;
}

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /** Most workers at once; default: the number of cores, between 2 and 4. */
  size?: number;
  /** Heap limit of each worker in MB; a task that needs more fails with a sentence. Default 512. */
  maxMemoryMb?: number;
}

/** Worker threads that run tasks under a deadline and can be stopped mid-task. */
export interface WorkerPool {
  /** Runs `task` with `input` on an idle worker (waiting for one if all are busy). */
  run<Output>(task: OffThreadTask, input: unknown, options: OffThreadOptions): Promise<Output>;
  /** Terminates every worker; runs still waiting or running fail. */
  close(): Promise<void>;
}

interface Job {
  /** Set when the job is sent to a worker; replies carry it back. */
  id?: number;
  label: string;
  /** Set once the task module is found, before the job is dispatched. */
  request?: Omit<TaskRequest, 'id'>;
  /** True once the job has its outcome: a job cancelled while the threads were loading is never dispatched. */
  done?: boolean;
  resolve(output: unknown): void;
  fail(error: Error): void;
  slot?: Slot;
}

interface Slot {
  worker: Worker;
  job?: Job;
}

const defaultMaxMemoryMb = 512;

/** What starting workers needs: loaded by the first run, not when a server creates its pool at start (ADR 0020). */
interface Threads {
  Worker: typeof Worker;
  availableParallelism(): number;
  compiledModule(module: URL): URL;
}

let threadsLoading: Promise<Threads> | undefined;
/** Set once {@link loadThreads} has resolved, so later runs dispatch without waiting a turn. */
let threads: Threads | undefined;

function loadThreads(): Promise<Threads> {
  threadsLoading ??= Promise.all([
    import('node:worker_threads'),
    import('node:os'),
    import('./compiled-module.js'),
  ]).then(([workerThreads, os, compiled]) => {
    threads = {
      Worker: workerThreads.Worker,
      availableParallelism: os.availableParallelism,
      compiledModule: compiled.compiledModule,
    };
    return threads;
  });
  return threadsLoading;
}

/**
 * Creates a pool of worker threads for CPU-heavy steps on untrusted input (diffs, HTML conversion, large regex
 * scans): the main thread stays free for other requests, and a run that passes its deadline or is cancelled is
 * stopped by terminating its worker (a replacement starts on the next run). Idle workers never keep the process
 * alive. Module-level state of a task module lives as long as its worker, so compile-once caches work.
 */
export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  let size = options.size;
  const maxMemoryMb = options.maxMemoryMb ?? defaultMaxMemoryMb;
  const slots: Slot[] = [];
  const waiting: Job[] = [];
  let nextId = 0;
  let closed = false;

  /** Starts a worker; called only once the threads are loaded (every job is dispatched after that). */
  function startWorker(loaded: Threads): Slot {
    const worker = new loaded.Worker(loaded.compiledModule(new URL('./task-worker.js', import.meta.url)), {
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
    });
    const slot: Slot = { worker };
    worker.on('message', (reply: TaskReply) => {
      const job = slot.job;
      if (!job || reply.id !== job.id) return;
      finish(slot);
      if ('output' in reply) job.resolve(reply.output);
      else job.fail(reply.error.toolError ? new ToolError(reply.error.message) : new Error(reply.error.message));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const job = slot.job;
      drop(slot);
      if (!job) return;
      job.fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ToolError(`Stopped ${job.label}: it needed more than ${maxMemoryMb} MB of memory. Ask for less.`)
          : error,
      );
    });
    worker.on('exit', () => {
      const job = slot.job;
      drop(slot);
      job?.fail(new Error(`The worker running ${job.label} exited.`));
    });
    slots.push(slot);
    return slot;
  }

  function dispatch(job: Job): void {
    const loaded = threads as Threads;
    size ??= Math.max(2, Math.min(4, loaded.availableParallelism()));
    let slot: Slot | undefined;
    try {
      slot = slots.find((candidate) => !candidate.job) ?? (slots.length < size ? startWorker(loaded) : undefined);
    } catch (error) {
      // A worker that cannot start (its entry missing from the build) fails this run, not the process: dispatch also
      // runs in the threads' loading callback and in worker events, where a throw would end the server.
      job.fail(error as Error);
      return;
    }
    if (!slot) {
      waiting.push(job);
      return;
    }
    job.id = nextId++;
    slot.job = job;
    job.slot = slot;
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, ...(job.request as Omit<TaskRequest, 'id'>) } satisfies TaskRequest);
  }

  /** A slot's job is done: the worker idles (unreferenced) and takes the next waiting job. */
  function finish(slot: Slot): void {
    slot.job = undefined;
    slot.worker.unref();
    const next = waiting.shift();
    if (next) dispatch(next);
  }

  /** A slot's worker is gone or going: forget it, and start a waiting job on a fresh worker. */
  function drop(slot: Slot): void {
    const index = slots.indexOf(slot);
    if (index === -1) return;
    slots.splice(index, 1);
    slot.job = undefined;
    const next = waiting.shift();
    if (next && !closed) dispatch(next);
  }

  /** Stops a job that is waiting or running: a running one takes its worker with it. */
  function cancel(job: Job, error: ToolError): void {
    const queued = waiting.indexOf(job);
    if (queued !== -1) waiting.splice(queued, 1);
    const slot = job.slot;
    if (slot && slot.job === job) {
      drop(slot);
      void slot.worker.terminate();
    }
    job.fail(error);
  }

  return {
    run<Output>(task: OffThreadTask, input: unknown, runOptions: OffThreadOptions): Promise<Output> {
      const label = runOptions.label ?? 'the step';
      if (closed) return Promise.reject(new ToolError(`Stopped ${label}: the server is closing.`));
      if (runOptions.signal?.aborted) return Promise.reject(new ToolError('The request was cancelled.'));
      return new Promise<Output>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const signal = runOptions.signal;
        const settle = () => {
          job.done = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const job: Job = {
          label,
          resolve(output) {
            settle();
            resolve(output as Output);
          },
          fail(error) {
            settle();
            reject(error);
          },
        };
        const onAbort = () => cancel(job, new ToolError('The request was cancelled.'));
        signal?.addEventListener('abort', onAbort, { once: true });
        const seconds = Math.round(runOptions.timeoutMs / 100) / 10;
        timer = setTimeout(
          () => cancel(job, new ToolError(`Stopped ${label} after ${seconds} s, its time limit. Ask for less.`)),
          runOptions.timeoutMs,
        );
        const enqueue = (loaded: Threads) => {
          if (job.done) return;
          try {
            job.request = { module: loaded.compiledModule(task.module).href, name: task.name, input };
          } catch (error) {
            job.fail(error as Error);
            return;
          }
          dispatch(job);
        };
        if (threads) enqueue(threads);
        else loadThreads().then(enqueue, (error: Error) => job.fail(error));
      });
    },

    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.fail(new ToolError('Stopped: the server is closing.'));
      await Promise.all(
        slots.splice(0).map((slot) => {
          slot.job?.fail(new ToolError('Stopped: the server is closing.'));
          return slot.worker.terminate();
        }),
      );
    },
  };
}

let sharedPool: WorkerPool | undefined;

/**
 * Runs `task` with `input` on the kit's shared worker pool, under `options.timeoutMs` and `options.signal`: the
 * one way a server runs a CPU-heavy step on untrusted input. Rejects with a {@link ToolError} when stopped (time
 * limit, cancel, memory limit) or when the task throws one.
 */
export function runOffThread<Output>(task: OffThreadTask, input: unknown, options: OffThreadOptions): Promise<Output> {
  sharedPool ??= createWorkerPool();
  return sharedPool.run<Output>(task, input, options);
}
