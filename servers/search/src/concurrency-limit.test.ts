import { expect, it } from 'vitest';
import { ConcurrencyLimit } from './concurrency-limit.js';

it('runs at most its slots at once, the rest in order, and lets a cancelled waiter leave the line', async () => {
  const limit = new ConcurrencyLimit(2);
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const releases: (() => void)[] = [];
  const task = (number: number) => async () => {
    running++;
    most = Math.max(most, running);
    order.push(number);
    await new Promise<void>((resolve) => releases.push(resolve));
    running--;
  };
  const cancel = new AbortController();
  const runs = [1, 2, 3].map((number) => limit.run(task(number)));
  const cancelled = limit.run(task(9), cancel.signal);
  const last = limit.run(task(4));
  cancel.abort();
  await expect(cancelled).rejects.toThrow('The request was cancelled.');
  while (order.length < 4 || releases.length > 0) {
    await new Promise((resolve) => setImmediate(resolve));
    releases.shift()?.();
  }
  await Promise.all([...runs, last]);
  expect(most).toBe(2);
  expect(order).toEqual([1, 2, 3, 4]);
});
