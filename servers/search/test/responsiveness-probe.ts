import type { TestClient } from '@mcpkit/server-kit/testing';

/** What a probe saw while some work ran: the work's outcome and each ping's latency in milliseconds. */
export interface ProbeReport<T> {
  outcome: PromiseSettledResult<T>;
  latencies: number[];
}

/**
 * Pings the server every `intervalMs` while `work` runs and measures each ping from the moment it was due, not from
 * when it was sent: in one process, a held event loop delays the timer as well as the answer, and both count.
 */
export async function probeWhile<T>(client: TestClient, work: Promise<T>, intervalMs = 40): Promise<ProbeReport<T>> {
  let settled = false;
  const outcome = Promise.allSettled([work]).then(([result]) => {
    settled = true;
    return result as PromiseSettledResult<T>;
  });
  const latencies: number[] = [];
  while (!settled) {
    const due = performance.now() + intervalMs;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    await client.client.ping();
    latencies.push(performance.now() - due);
  }
  return { outcome: await outcome, latencies };
}

/**
 * The longest single probe a test allows while hostile work runs: room for one slow ping on a loaded machine (a CI
 * run under another job's load, 20 and more on two cores, saw 2.9 and 3.3 s), while the median (under 200 ms in every
 * test) is what catches a loop held batch after batch. A loop held whole by the work takes longer than this.
 */
export const longestProbeMs = 5_000;

/** The median of some numbers (0 for none). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
