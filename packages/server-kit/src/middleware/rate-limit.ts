import { KitError } from '../errors.js';
import type { Middleware, MiddlewareMethod, MiddlewareRequest } from './middleware.js';
import { refuse } from './refuse.js';

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Calls allowed per interval: the rate at which a bucket refills. */
  limit: number;
  /** The interval of `limit` in milliseconds (default 1000: `limit` calls a second). */
  intervalMs?: number;
  /** Calls allowed at once after a quiet spell: the bucket's size (default `limit`). */
  burst?: number;
  /** What one bucket counts: each caller's calls of each tool (default), or each caller's calls of every tool. */
  per?: 'caller-and-target' | 'caller';
  /** The methods counted (default tools/call only); other requests pass untouched. */
  methods?: readonly MiddlewareMethod[];
  /** The caller's part of the bucket key (default `request.caller.key`: token subject, session or connection). */
  callerKey?(request: MiddlewareRequest): string;
  /** How many buckets are kept before full ones are forgotten (default 10,000). */
  maxBuckets?: number;
  /** The clock, in milliseconds (default `performance.now`); for tests. */
  now?(): number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** "0.3 seconds", "2 seconds", "1.5 minutes": how long to wait, rounded up so that a retry then succeeds. */
function describeWait(milliseconds: number): string {
  if (milliseconds < 10_000) return `${Math.ceil(milliseconds / 100) / 10} seconds`;
  if (milliseconds < 120_000) return `${Math.ceil(milliseconds / 1000)} seconds`;
  return `${Math.ceil(milliseconds / 6000) / 10} minutes`;
}

/** "10 calls a second", "5 calls every 2 minutes". */
function describeRate(limit: number, intervalMs: number): string {
  const calls = `${limit} call${limit === 1 ? '' : 's'}`;
  if (intervalMs === 1000) return `${calls} a second`;
  if (intervalMs === 60_000) return `${calls} a minute`;
  if (intervalMs === 3_600_000) return `${calls} an hour`;
  return `${calls} every ${describeWait(intervalMs)}`;
}

/**
 * A token bucket per caller and per tool (or per caller): a call takes a token, tokens come back at `limit` per
 * `intervalMs` up to `burst`. A call finding the bucket empty is refused with a sentence saying when to retry (an
 * `isError` result for a tool; otherwise a JSON-RPC error whose data has `retryAfterMs`).
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  const { limit } = options;
  const intervalMs = options.intervalMs ?? 1000;
  const burst = options.burst ?? limit;
  for (const [name, value] of [
    ['limit', limit],
    ['intervalMs', intervalMs],
    ['burst', burst],
  ] as const) {
    if (!(Number.isFinite(value) && value > 0)) {
      throw new KitError('INVALID_OPTIONS', `rateLimit: ${name} must be a positive number, not ${String(value)}.`);
    }
  }
  const perMillisecond = limit / intervalMs;
  const methods = new Set<string>(options.methods ?? ['tools/call']);
  const perTarget = (options.per ?? 'caller-and-target') === 'caller-and-target';
  const maxBuckets = options.maxBuckets ?? 10_000;
  const now = options.now ?? (() => performance.now());
  const buckets = new Map<string, Bucket>();
  const rate = describeRate(limit, intervalMs);

  const forgetFull = (time: number) => {
    for (const [key, bucket] of buckets) {
      if (bucket.tokens + (time - bucket.at) * perMillisecond >= burst) buckets.delete(key);
    }
  };

  return (request, next) => {
    if (!methods.has(request.method)) return next();
    const caller = options.callerKey ? options.callerKey(request) : request.caller.key;
    // An unknown name gets one shared bucket, so that made-up names cannot grow the map.
    const target = request.definition ? (request.target ?? '') : '(unknown)';
    const key = perTarget ? `${caller}\u0000${request.method}\u0000${target}` : caller;
    const time = now();
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      if (buckets.size >= maxBuckets) forgetFull(time);
      bucket = { tokens: burst, at: time };
      buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(burst, bucket.tokens + (time - bucket.at) * perMillisecond);
      bucket.at = time;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return next();
    }
    const retryAfterMs = Math.ceil((1 - bucket.tokens) / perMillisecond);
    const what = !perTarget
      ? 'requests'
      : request.method === 'tools/call'
        ? `calls to the tool "${request.target}"`
        : `${request.method} requests for "${request.target}"`;
    return refuse(
      request,
      `Too many ${what}: the limit is ${rate}${perTarget ? ' per caller and tool' : ' per caller'}. Try again in ${describeWait(retryAfterMs)}.`,
      { code: -32000, data: { retryAfterMs } },
    );
  };
}
