import { expect, it } from 'vitest';
import { heapAfterGc } from './heap-after-gc.js';

it('measures the heap after collecting what is no longer reachable', () => {
  const before = heapAfterGc();
  let garbage: number[][] | undefined = Array.from({ length: 200 }, () => new Array(10_000).fill(1));
  const held = heapAfterGc();
  expect(held - before).toBeGreaterThan(10_000_000);
  expect(garbage.length).toBe(200);
  garbage = undefined;
  expect(heapAfterGc() - before).toBeLessThan(1_000_000);
});
