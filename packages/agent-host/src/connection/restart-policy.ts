/** How a crashed stdio server is restarted. */
export interface RestartPolicy {
  /** Attempts after one crash before giving up (default 5). */
  maxAttempts: number;
  /** Delay before the first attempt; doubles each time (default 500 ms). */
  initialDelayMs: number;
  /** Longest delay between attempts (default 30 s). */
  maxDelayMs: number;
}

/** The restart policy with the defaults filled in where the caller gave none. */
export function restartPolicy(given: Partial<RestartPolicy> = {}): RestartPolicy {
  return { maxAttempts: 5, initialDelayMs: 500, maxDelayMs: 30_000, ...given };
}

/** How long to wait before restart attempt `attempt` (0 for the first): exponential backoff up to the longest delay. */
export function restartDelay(policy: RestartPolicy, attempt: number): number {
  return Math.min(policy.initialDelayMs * 2 ** attempt, policy.maxDelayMs);
}
