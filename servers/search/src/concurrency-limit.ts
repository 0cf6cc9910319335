import { ToolError } from '@mcpkit/server-kit';

/**
 * Lets at most `slots` tasks run at once; the others wait their turn in order, and a caller whose signal aborts while
 * it waits leaves the line at once. Calls that each hold a whole file in memory go through one, so that many calls at
 * once cost a few files of memory instead of one file each.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly slots: number) {}

  /** Runs `task` when a slot is free; rejects with the cancel sentence if `signal` aborts before that. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private acquire(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(new ToolError('The request was cancelled.'));
    if (this.running < this.slots) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', onAbort);
        this.running++;
        resolve();
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(turn);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(new ToolError('The request was cancelled.'));
      };
      this.waiting.push(turn);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
