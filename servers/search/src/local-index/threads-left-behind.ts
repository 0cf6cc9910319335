import { writeSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';

/**
 * The worker threads of this process that were told to stop and had not ended within their grace period (blocked in
 * a read on a hung mount), each until it ends.
 */
const leftBehind = new Set<Worker>();
let listening = false;

/**
 * Records that `worker`, told to stop (`ended` is its `terminate()`), did not end within its grace period. Until it
 * ends, the process's exit does not wait for it: on the main thread, an exit while such a thread is still alive writes
 * a sentence to stderr and kills the process (ADR 0308). Without that, the exit never finishes: Node joins every
 * worker thread as the process exits (`process.exit` included), and a thread blocked in a system call cannot be
 * interrupted, so the process waits for the read, which on a hung mount may never return.
 */
export function leaveBehind(worker: Worker, ended: Promise<unknown>): void {
  // `terminate()` holds the event loop open until the thread ends: a process with nothing else to do would never get
  // to its exit.
  worker.unref();
  leftBehind.add(worker);
  const forget = () => leftBehind.delete(worker);
  ended.then(forget, forget);
  // On another thread, `process.exit` ends only that thread, and killing the process would take its host with it.
  // (node:worker_threads is loaded by now, the threads run; imported statically it would load with the first search.)
  if (!listening && process.getBuiltinModule('node:worker_threads').isMainThread) {
    listening = true;
    process.on('exit', exitWithoutThreadsLeftBehind);
  }
}

/** How many threads left behind are still alive. */
export function threadsLeftBehind(): number {
  return leftBehind.size;
}

/**
 * At exit, with a thread left behind still alive: SIGKILL, the one way out that waits for no thread (the exit code the
 * process was given is lost; a process killed by a signal cannot have one), after a sentence on stderr when it can be
 * written. Node writes to files and terminals at once, and to a pipe what fits in it: only lines queued for a pipe that
 * its reader left full are lost, as `process.exit` loses them.
 */
function exitWithoutThreadsLeftBehind(code: number): void {
  if (leftBehind.size === 0) return;
  const threads = leftBehind.size === 1 ? 'a thread' : `${leftBehind.size} threads`;
  try {
    // Less than PIPE_BUF (4 KiB): a pipe takes it whole or not at all.
    writeSync(
      2,
      `The index writer left ${threads} that would not stop (blocked in a read or a write: a hung mount?); Node would ` +
        `wait for it to exit, so the process ends with SIGKILL instead of exit code ${code}.\n`,
    );
  } catch {
    // Nowhere to say it (EPIPE: the client that read stderr went away; EAGAIN: it stopped reading): thrown from here,
    // the error would end this listener before the kill, and the process would hang in the exit after all.
  }
  process.kill(process.pid, 'SIGKILL');
}
