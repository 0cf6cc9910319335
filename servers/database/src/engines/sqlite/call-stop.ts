/**
 * How one call ends early: at its deadline or when its client cancels. Whoever waits on the call's behalf (for a free
 * worker, or for a worker's answer) sets `onStop`, one at a time, and is told once.
 */
export class CallStop {
  reason: 'deadline' | 'cancel' | undefined;
  onStop: (() => void) | undefined;

  stop(reason: 'deadline' | 'cancel'): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.onStop?.();
  }
}
