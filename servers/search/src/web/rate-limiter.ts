import { setTimeout as sleep } from 'node:timers/promises';

/** Spaces out calls to one provider: callers wait their turn in order instead of being refused. */
export class RateLimiter {
  private nextSlot = 0;

  /** @param intervalMs the least time between the starts of two calls */
  constructor(private readonly intervalMs: number) {}

  /** Waits for the next free slot (first come, first served); rejects if `signal` aborts while waiting. */
  async acquire(signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await sleep(slot - now, undefined, signal ? { signal } : {});
  }

  /** Holds every later call back for `delayMs`, as a provider's Retry-After asks. */
  pause(delayMs: number): void {
    this.nextSlot = Math.max(this.nextSlot, Date.now() + delayMs);
  }
}
