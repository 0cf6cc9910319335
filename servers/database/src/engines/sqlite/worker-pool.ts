import type { CallStop } from './call-stop.js';
import { WorkerError } from './worker-process.js';

/** What the pool needs of a worker: whether it still runs, a way to stop it, and word of when it is gone. */
export interface PooledWorker {
  readonly alive: boolean;
  kill(): void;
  /** Calls `listener` once the worker is gone and its calls have failed; at once when it is gone already. */
  whenGone(listener: () => void): void;
}

interface Waiter<Worker> {
  resolve(worker: Worker): void;
  reject(error: unknown): void;
}

/** The error of a wait for a worker that the call's stop ended. */
function stoppedWaiting(stop: CallStop): Error {
  return new WorkerError(`The call stopped (${stop.reason}) while waiting for a worker.`, true);
}

/**
 * A few worker processes shared by all calls: a call takes an idle one, or waits for the next one that is given back
 * or finishes starting, and gives it back, or discards it when it had to be killed.
 *
 * At most one worker starts at a time. A call that finds no idle worker while a start is under way waits for that
 * start instead of beginning another (two processes booting at once on a small machine both come later than one,
 * and the second is rarely needed: a point query gives its worker back long before a process starts). A start that
 * fails fails every call waiting at that moment with its error (the reason the database cannot be opened, one
 * sentence); with nobody waiting the error is dropped, and the next call starts a worker of its own and hears it.
 */
export class WorkerPool<Worker extends PooledWorker> {
  private readonly idle: Worker[] = [];
  private readonly waiters: Waiter<Worker>[] = [];
  private readonly workers = new Set<Worker>();
  /** Workers alive or starting. */
  private live = 0;
  private starting = false;
  /** The start under way, told to give up when the pool closes. */
  private startAttempt: AbortController | undefined;
  /** Workers to keep alive without being asked (see prewarm). */
  private warm = 0;
  private closed = false;

  /**
   * `start` starts one worker; it must give up (kill what it started, and reject) when its signal aborts, which the
   * pool does after `startLimitMs`: one start at a time means a start that hangs (an open stuck on a network file
   * system) would otherwise keep every later call waiting until its own deadline, for good.
   */
  constructor(
    private readonly start: (signal: AbortSignal) => Promise<Worker>,
    private readonly size: number,
    private readonly startLimitMs = 30_000,
  ) {}

  /**
   * Starts workers in the background, one after another, until `count` of them are alive (at most the pool's size),
   * so that calls find one ready, and keeps that many after a kill; the calls that come meanwhile wait for the start
   * under way. A start that fails ends the prewarm (the next call starts a worker for itself).
   */
  prewarm(count = 1): void {
    this.warm = Math.min(this.size, Math.max(this.warm, count));
    this.startWhenNeeded(false);
  }

  /** An idle worker, or the next one given back or started. */
  acquire(stop: CallStop): Promise<Worker> {
    if (stop.reason !== undefined) return Promise.reject(stoppedWaiting(stop));
    if (this.closed) return Promise.reject(new WorkerError('The database is closed.', true));
    for (let idle = this.idle.pop(); idle; idle = this.idle.pop()) {
      if (idle.alive) return Promise.resolve(idle);
      this.discard(idle); // died while idle (killed from outside, out of memory): replace it
    }
    // The stop's listener goes as soon as the wait ends, whichever way: nothing of the wait outlives it.
    const waiting = new Promise<Worker>((resolve, reject) => {
      const waiter: Waiter<Worker> = {
        resolve: (worker) => {
          stop.onStop = undefined;
          resolve(worker);
        },
        reject: (error) => {
          stop.onStop = undefined;
          reject(error);
        },
      };
      this.waiters.push(waiter);
      stop.onStop = () => {
        stop.onStop = undefined;
        const index = this.waiters.indexOf(waiter);
        if (index !== -1) this.waiters.splice(index, 1);
        reject(stoppedWaiting(stop));
      };
    });
    this.startWhenNeeded(false);
    return waiting;
  }

  /** Gives a healthy worker back: to the first call waiting, or to the idle list. */
  release(worker: Worker): void {
    if (this.closed || !worker.alive) {
      this.discard(worker);
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(worker);
    else this.idle.push(worker);
  }

  /**
   * Kills a worker (at a deadline, or after a cancel) and starts a replacement for whoever waits, or as a spare, once
   * the killed one is gone and the call it ran has had its answer: starting a process holds the server's thread for
   * the fork (2-28 ms measured), which would otherwise come between a deadline and its error.
   */
  discard(worker: Worker): void {
    worker.kill();
    if (!this.workers.delete(worker)) return;
    this.live -= 1;
    worker.whenGone(() => setImmediate(() => this.startWhenNeeded(true)));
  }

  /**
   * Kills every worker; calls waiting for one fail. A start under way is told to give up at once (a process still
   * opening the file would otherwise live on until its open ended, and a server exiting meanwhile left it to write its
   * answer into a closed channel); a worker whose start ends anyway is killed when it lands.
   */
  close(): void {
    this.closed = true;
    this.startAttempt?.abort();
    this.idle.length = 0;
    for (const worker of this.workers) worker.kill();
    this.workers.clear();
    for (const waiter of this.waiters.splice(0)) waiter.reject(new WorkerError('The database is closed.', true));
  }

  /**
   * Starts one worker when none is starting, there is room, and someone needs it: a call waiting, the prewarmed
   * count not reached, or (after a kill) no idle worker left for the next call.
   */
  private startWhenNeeded(spare: boolean): void {
    if (this.closed || this.starting || this.live >= this.size) return;
    const needed = this.waiters.length > 0 || this.live < this.warm || (spare && this.idle.length === 0);
    if (!needed) return;
    this.live += 1;
    this.starting = true;
    const attempt = new AbortController();
    this.startAttempt = attempt;
    const limit = setTimeout(() => attempt.abort(), this.startLimitMs);
    limit.unref();
    this.start(attempt.signal)
      .finally(() => {
        clearTimeout(limit);
        this.startAttempt = undefined;
      })
      .then(
        (worker) => {
          this.starting = false;
          this.workers.add(worker);
          if (this.closed) worker.kill();
          this.release(worker);
          this.startWhenNeeded(false);
        },
        (error: unknown) => {
          this.starting = false;
          this.live -= 1;
          // Nobody is told twice and nothing retries in the background: the next call starts again.
          this.warm = Math.min(this.warm, this.live);
          for (const waiter of this.waiters.splice(0)) waiter.reject(error);
        },
      );
  }
}
