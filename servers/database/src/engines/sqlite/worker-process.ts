import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { FrameReader, frame, workerChannelFd } from './worker-channel.js';
import { memoryCheckMs, residentMegabytes, tooLargeMessage } from './worker-memory.js';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';

type RequestBody = WorkerRequest extends infer Request
  ? Request extends { id: number }
    ? Omit<Request, 'id'>
    : never
  : never;

/** A worker's failure: its message, and whether that message was written for the model. */
export class WorkerError extends Error {
  readonly forModel: boolean;

  constructor(message: string, forModel: boolean) {
    super(message);
    this.name = 'WorkerError';
    this.forModel = forModel;
  }
}

/** How a worker process is started. */
export interface WorkerProcessOptions {
  /** MiB of resident memory the process may use while it answers a request; past it, it is killed. */
  memoryMb: number;
}

/** Workers answering a request, whose resident size one shared timer reads (no timer per query; see checkBusyWorkers). */
const busyWorkers = new Set<WorkerProcess>();
let memoryWatch: NodeJS.Timeout | undefined;

function checkBusyWorkers(): void {
  // The watch outlives a request by one tick, so that back-to-back queries never start and stop a timer each.
  if (busyWorkers.size === 0) {
    clearInterval(memoryWatch);
    memoryWatch = undefined;
    return;
  }
  for (const worker of busyWorkers) {
    // Without /proc only the V8 heap limit bounds a worker; stop reading it.
    if (!worker.checkMemory()) busyWorkers.delete(worker);
  }
}

/**
 * One SQLite worker process and the requests waiting for its answers. Its memory is bounded twice: V8's heap limit
 * (a huge value copied into JavaScript) and, while a request runs, its resident size read from /proc every few ms
 * (SQLite builds a huge value in native memory, which no V8 flag limits, and SQLite's own heap limit is off in this
 * build). A worker stopped for memory fails its requests with a sentence for the model; it is never retried.
 */
export class WorkerProcess {
  private readonly child: ChildProcess;
  private readonly channel: Socket;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private exited = false;
  private readonly goneListeners: (() => void)[] = [];
  private overMemory = false;

  constructor(
    entry: string,
    private readonly options: WorkerProcessOptions,
  ) {
    // stdout is ignored: on stdio it is the server's protocol channel, and the worker has nothing to say there. The
    // requests go through a socket of their own (worker-protocol.ts), not Node's IPC channel.
    const stdio: ('ignore' | 'inherit' | 'pipe')[] = ['ignore', 'ignore', 'inherit'];
    stdio[workerChannelFd] = 'pipe';
    // `node:child_process` is taken here, at the first worker, not imported at the top: the engine loads with the
    // server's start, before its first answer, and the module (with `net` and `dgram` behind it) is not needed until
    // the first worker starts (ADR 0021).
    this.child = process.getBuiltinModule('node:child_process').spawn(
      process.execPath,
      // `--expose-gc`: the worker collects a huge request's memory once it has answered it (worker-requests.ts).
      [`--max-old-space-size=${Math.max(32, Math.floor(options.memoryMb * 0.75))}`, '--expose-gc', entry],
      { stdio },
    );
    this.channel = this.child.stdio[workerChannelFd] as Socket;
    // An idle worker never keeps the server's process alive; a request in flight does (see request()).
    this.child.unref();
    this.channel.unref();
    const reader = new FrameReader();
    const onReply = (message: unknown) => {
      const reply = message as WorkerReply;
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.idle();
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new WorkerError(reply.message, reply.forModel));
    };
    this.channel.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk, onReply);
      } catch {
        // A reply that does not decode: the channel is out of step, so this worker goes (its calls fail as a crash
        // and it is replaced) and the server, which serves every session, stays up.
        this.kill();
      }
    });
    // A write to a worker that just died fails here; its requests fail when the process's exit is seen, below.
    this.channel.on('error', () => {});
    const fail = (reason: string, forModel: boolean) => {
      this.exited = true;
      this.idle();
      for (const waiting of this.pending.values()) waiting.reject(new WorkerError(reason, forModel));
      this.pending.clear();
      for (const listener of this.goneListeners.splice(0)) listener();
    };
    this.child.on('exit', (code, signal) => {
      // V8 out of heap aborts the process (SIGABRT, or exit code 134 through a shell).
      if (this.overMemory || signal === 'SIGABRT' || code === 134) fail(tooLargeMessage(options.memoryMb), true);
      else fail(`The SQLite worker process exited (${signal ?? `code ${code}`}).`, false);
    });
    this.child.on('error', (error) => fail(`The SQLite worker process failed: ${error.message}`, false));
  }

  /** A request runs: the process keeps the server alive and its resident size is watched. */
  private busy(): void {
    this.channel.ref();
    busyWorkers.add(this);
    memoryWatch ??= setInterval(checkBusyWorkers, memoryCheckMs).unref();
  }

  private idle(): void {
    this.channel.unref();
    busyWorkers.delete(this);
  }

  /** Kills the process when it is past its memory limit; false when its size cannot be read (no /proc). */
  checkMemory(): boolean {
    const pid = this.child.pid;
    const resident = pid === undefined ? undefined : residentMegabytes(pid);
    if (resident === undefined) return false;
    if (resident > this.options.memoryMb) {
      this.overMemory = true;
      this.kill();
    }
    return true;
  }

  /** Whether the process is gone (killed or crashed). */
  get alive(): boolean {
    return !this.exited;
  }

  /** Calls `listener` once the process is gone and its requests have failed; at once when it is gone already. */
  whenGone(listener: () => void): void {
    if (this.exited) listener();
    else this.goneListeners.push(listener);
  }

  /** Sends a request and resolves with the worker's answer. */
  request(body: RequestBody): Promise<unknown> {
    if (this.exited) return Promise.reject(new WorkerError('The SQLite worker process is gone.', false));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.busy();
      this.channel.write(frame({ ...body, id } as WorkerRequest));
    });
  }

  /** Stops the process at once, whatever it is doing (SIGKILL: a query in native code never sees a gentler signal). */
  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
