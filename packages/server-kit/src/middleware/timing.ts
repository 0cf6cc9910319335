import type { Middleware, MiddlewareMethod } from './middleware.js';
import { type Outcome, outcomeOf } from './outcome.js';

/** The upper bounds of the histogram's buckets, in milliseconds; a last bucket holds everything slower. */
export const timingBucketsMs: readonly number[] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000];

/** The durations of one method and target (a tool, prompt or resource). */
export interface TimingStats {
  method: MiddlewareMethod;
  /** The tool or prompt name, resource URI or completion reference; undefined for list calls and unknown names. */
  target?: string;
  /** How many requests ended, and how many of them with each outcome. */
  count: number;
  outcomes: Record<Outcome, number>;
  totalMs: number;
  minMs: number;
  maxMs: number;
  /** Requests per bucket: `counts[i]` took at most `timingBucketsMs[i]` (and more than the bound before); the last is slower than every bound. */
  counts: number[];
  /** Estimated 50th, 90th and 99th percentiles: the upper bound of the bucket each falls in (the maximum for the last). */
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
}

/** A middleware that keeps a duration histogram per method and target, readable by code. */
export interface TimingMiddleware extends Middleware {
  /** The histograms so far, one per method and target, slowest total first. */
  snapshot(): TimingStats[];
  /** Forgets every histogram. */
  reset(): void;
}

interface Histogram {
  method: MiddlewareMethod;
  target: string | undefined;
  outcomes: Record<Outcome, number>;
  totalMs: number;
  minMs: number;
  maxMs: number;
  counts: number[];
}

function percentile(histogram: Histogram, count: number, fraction: number): number {
  const rank = Math.ceil(count * fraction);
  let seen = 0;
  for (const [index, bucketCount] of histogram.counts.entries()) {
    seen += bucketCount;
    if (seen >= rank) return Math.min(timingBucketsMs[index] ?? histogram.maxMs, histogram.maxMs);
  }
  return histogram.maxMs;
}

/**
 * Times every request by method and target (a tool, prompt, resource): count, outcomes, total, minimum, maximum and a
 * histogram with estimated percentiles, read with `snapshot()`. Names that are not registered share one entry, so a
 * client cannot grow the table.
 */
export function timing(): TimingMiddleware {
  const histograms = new Map<string, Histogram>();
  const record = (method: MiddlewareMethod, target: string | undefined, outcome: Outcome, milliseconds: number) => {
    const key = target === undefined ? method : `${method} ${target}`;
    let histogram = histograms.get(key);
    if (histogram === undefined) {
      histogram = {
        method,
        target,
        outcomes: { ok: 0, 'tool-error': 0, 'input-required': 0, error: 0 },
        totalMs: 0,
        minMs: Number.POSITIVE_INFINITY,
        maxMs: 0,
        counts: new Array<number>(timingBucketsMs.length + 1).fill(0),
      };
      histograms.set(key, histogram);
    }
    histogram.outcomes[outcome] += 1;
    histogram.totalMs += milliseconds;
    histogram.minMs = Math.min(histogram.minMs, milliseconds);
    histogram.maxMs = Math.max(histogram.maxMs, milliseconds);
    let bucket = timingBucketsMs.findIndex((bound) => milliseconds <= bound);
    if (bucket === -1) bucket = timingBucketsMs.length;
    histogram.counts[bucket] = (histogram.counts[bucket] ?? 0) + 1;
  };

  const middleware: Middleware = async (request, next) => {
    const started = performance.now();
    const target = request.definition ? request.target : undefined;
    try {
      const result = await next();
      record(request.method, target, outcomeOf(result), performance.now() - started);
      return result;
    } catch (error) {
      record(request.method, target, 'error', performance.now() - started);
      throw error;
    }
  };
  return Object.assign(middleware, {
    snapshot(): TimingStats[] {
      return Array.from(histograms.values(), (histogram) => {
        const count = histogram.counts.reduce((sum, value) => sum + value, 0);
        return {
          method: histogram.method,
          ...(histogram.target !== undefined ? { target: histogram.target } : {}),
          count,
          outcomes: { ...histogram.outcomes },
          totalMs: histogram.totalMs,
          minMs: histogram.minMs,
          maxMs: histogram.maxMs,
          counts: [...histogram.counts],
          p50Ms: percentile(histogram, count, 0.5),
          p90Ms: percentile(histogram, count, 0.9),
          p99Ms: percentile(histogram, count, 0.99),
        };
      }).sort((a, b) => b.totalMs - a.totalMs);
    },
    reset() {
      histograms.clear();
    },
  });
}
