import { setImmediate as nextTurn } from 'node:timers/promises';
import { ToolError } from '@mcpkit/server-kit';

/**
 * Lets a long synchronous loop (a walk, a grep) share the event loop: every few milliseconds it yields so requests,
 * cancellations and pings get through, and it tells the loop when the time limit is spent.
 */
export class TimeSlice {
  private readonly started = performance.now();
  private sliceStart = performance.now();
  private readonly signal: AbortSignal;
  private readonly limitMs: number;

  constructor(signal: AbortSignal, limitMs: number) {
    this.signal = signal;
    this.limitMs = limitMs;
  }

  /** Call once per unit of work; yields when the slice is used up. False when the time limit is spent. */
  async tick(): Promise<boolean> {
    const now = performance.now();
    if (now - this.sliceStart < 15) return true;
    await nextTurn();
    if (this.signal.aborted) throw new ToolError('The request was cancelled.');
    this.sliceStart = performance.now();
    return this.sliceStart - this.started < this.limitMs;
  }

  /** Seconds since the start, for notes. */
  elapsedSeconds(): number {
    return Math.round((performance.now() - this.started) / 100) / 10;
  }
}
