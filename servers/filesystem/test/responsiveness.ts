import { setTimeout as sleep } from 'node:timers/promises';
import type { TestClient } from '@mcpkit/server-kit/testing';

/**
 * Pings the server every `intervalMs` while `running` is unsettled and returns each ping's delay: from the moment it
 * was due to its answer, so a held event loop counts whether it delays the timer, the request or the reply.
 */
export async function probeWhile(
  probe: TestClient,
  running: Promise<unknown>,
  options: { intervalMs?: number; minimumProbes?: number; maximumMs?: number } = {},
): Promise<number[]> {
  const intervalMs = options.intervalMs ?? 25;
  const minimumProbes = options.minimumProbes ?? 5;
  const maximumMs = options.maximumMs ?? 10_000;
  let settled = false;
  running.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  const latencies: number[] = [];
  const started = performance.now();
  while ((!settled || latencies.length < minimumProbes) && performance.now() - started < maximumMs) {
    const due = performance.now() + intervalMs;
    await sleep(intervalMs);
    await probe.client.ping();
    latencies.push(performance.now() - due);
  }
  return latencies;
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** CPU time (user + system, in ms) this process spends during `ms` milliseconds from now. */
export async function cpuDuring(ms: number): Promise<number> {
  const before = process.cpuUsage();
  await sleep(ms);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/**
 * The longest time the event loop of this process (where the in-memory server's main thread runs) went without
 * running a 10 ms timer while `running` was unsettled.
 */
export async function longestHoldWhile(running: Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  try {
    await running;
  } finally {
    clearInterval(timer);
  }
  return Math.max(longest, performance.now() - last);
}
