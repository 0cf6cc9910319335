import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { TimeSlice } from './time-slice.js';

function busy(milliseconds: number): void {
  const until = performance.now() + milliseconds;
  while (performance.now() < until) {
    // spin: the slice measures wall-clock time spent without yielding
  }
}

describe('TimeSlice', () => {
  it('yields after a slice and reports when the time limit is spent', async () => {
    // A limit of 300 ms: the second tick, 20 ms of work in, may come late on a loaded machine (with a 40 ms limit,
    // 20 ms more of waiting for the CPU would have it report the limit spent).
    const slice = new TimeSlice(new AbortController().signal, 300);
    expect(await slice.tick()).toBe(true);
    busy(20);
    expect(await slice.tick()).toBe(true);
    // The limit is wall-clock time since the start, so waiting spends it as working would.
    await sleep(300);
    expect(await slice.tick()).toBe(false);
  });

  it('lets other callbacks run when it yields', async () => {
    const slice = new TimeSlice(new AbortController().signal, 10_000);
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    busy(20);
    await slice.tick();
    expect(ran).toBe(true);
  });

  it('throws a readable error once the request is cancelled', async () => {
    const controller = new AbortController();
    const slice = new TimeSlice(controller.signal, 10_000);
    controller.abort();
    busy(20);
    await expect(slice.tick()).rejects.toThrow(/cancelled/);
  });
});
