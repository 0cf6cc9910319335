import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IndexProgress } from '../local-index/indexer.js';
import type { SearchIndex } from '../search-index.js';
import { whenIndexReady } from './indexing-progress.js';

afterEach(() => {
  vi.useRealTimers();
});

/** An index whose first run goes through the given states, one per 300 ms, then ends. */
function indexRunning(states: IndexProgress[]): SearchIndex {
  let current: IndexProgress | undefined;
  let ready = false;
  const finished = new Promise<void>((resolve) => {
    states.forEach((state, index) => {
      setTimeout(() => {
        current = state;
      }, index * 300);
    });
    setTimeout(() => {
      ready = true;
      resolve();
    }, states.length * 300);
  });
  return {
    get ready() {
      return ready;
    },
    get indexing() {
      return { indexer: { progress: current } } as SearchIndex['indexing'];
    },
    whenReady: async () => {
      await finished;
      return true;
    },
  } as unknown as SearchIndex;
}

describe('whenIndexReady', () => {
  it('reports each state of the first run as progress while waiting for it', async () => {
    vi.useFakeTimers();
    const sent: [number, number | undefined, string | undefined][] = [];
    const progress = vi.fn(async (done: number, total?: number, message?: string) => {
      sent.push([done, total, message]);
    });
    const index = indexRunning([
      { directory: '/d', phase: 'scanning', done: 120 },
      { directory: '/d', phase: 'scanning', done: 150, stored: 20 },
      { directory: '/d', phase: 'indexing', done: 40, total: 100 },
      { directory: '/d', phase: 'merging', done: 1 },
    ]);
    const waiting = whenIndexReady(index, 15_000, progress);
    await vi.advanceTimersByTimeAsync(1300);
    expect(await waiting).toBe(true);
    expect(sent).toEqual([
      [0, undefined, 'Scanned 120 files'],
      [20, undefined, 'Scanned 150 files, indexed 20 changed files'],
      [40, 100, 'Indexed 40 of 100 changed files'],
      [1, undefined, 'Merging the index'],
    ]);
  });

  it('sends nothing when the index is ready already', async () => {
    const progress = vi.fn(async () => {});
    const ready = { ready: true, whenReady: async () => true } as unknown as SearchIndex;
    expect(await whenIndexReady(ready, 15_000, progress)).toBe(true);
    expect(progress).not.toHaveBeenCalled();
  });
});
