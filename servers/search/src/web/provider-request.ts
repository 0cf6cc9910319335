import { setTimeout as sleep } from 'node:timers/promises';
import { ToolError } from '@mcpkit/server-kit';
import type { Dispatcher } from 'undici';
import { formatSeconds } from '../format-duration.js';
import type { RateLimiter } from './rate-limiter.js';

/** How one provider call behaves. */
export interface ProviderRequestOptions {
  providerName: string;
  headers?: Record<string, string>;
  limiter: RateLimiter;
  /** Time limit of one attempt, in milliseconds. */
  timeoutMs: number;
  /** The longest Retry-After the call waits out before giving up, in milliseconds. */
  maxRetryAfterMs: number;
  /** Retries after a 429 before giving up. */
  maxRetries?: number;
  dispatcher?: Dispatcher;
  signal: AbortSignal;
  /** Turns a non-2xx status into the sentence the model reads, for statuses the provider documents. */
  describeStatus?(status: number): string | undefined;
}

const maxResponseBytes = 2 * 1024 * 1024;

/** Seconds or an HTTP date, as RFC 9110 allows; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const header = Array.isArray(value) ? value[0] : value;
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * GETs a provider's JSON API: waits for the provider's rate limiter, honours Retry-After on 429 (waiting and
 * retrying while the wait is short), and turns timeouts, refused connections and bad answers into one sentence.
 */
export async function getProviderJson(url: URL, options: ProviderRequestOptions): Promise<unknown> {
  const { providerName } = options;
  const maxRetries = options.maxRetries ?? 2;
  // undici loads on the first call, not when the server starts (most sessions never search the web).
  const { request } = await import('undici');
  for (let attempt = 0; ; attempt++) {
    await options.limiter.acquire(options.signal);
    const timeout = AbortSignal.timeout(options.timeoutMs);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json', ...options.headers },
        signal: AbortSignal.any([options.signal, timeout]),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      });
    } catch (error) {
      throw unreachable(providerName, url, error, timeout.aborted, options.timeoutMs);
    }
    if (response.statusCode === 429) {
      await response.body.dump();
      const wait = parseRetryAfter(response.headers['retry-after']) ?? 1000;
      options.limiter.pause(wait);
      if (attempt >= maxRetries || wait > options.maxRetryAfterMs) {
        throw new ToolError(
          `${providerName} is rate limiting these searches; try again in ${formatSeconds(Math.ceil(wait / 1000) * 1000)}.`,
        );
      }
      await sleep(wait, undefined, { signal: options.signal });
      continue;
    }
    let body: string;
    try {
      body = await readCapped(response.body);
    } catch (error) {
      throw unreachable(providerName, url, error, timeout.aborted, options.timeoutMs);
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const described = options.describeStatus?.(response.statusCode);
      throw new ToolError(described ?? `${providerName} answered with HTTP ${response.statusCode}; try again later.`);
    }
    try {
      return JSON.parse(body);
    } catch {
      throw new ToolError(`${providerName} answered with something that is not JSON; check the provider's address.`);
    }
  }
}

async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).byteLength;
    if (size > maxResponseBytes) {
      body.destroy();
      throw new Error(`the answer was larger than ${maxResponseBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function unreachable(name: string, url: URL, error: unknown, timedOut: boolean, timeoutMs: number): ToolError {
  if (timedOut) return new ToolError(`${name} did not answer within ${formatSeconds(timeoutMs)}; try again.`);
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code;
  const reason = code ?? (error instanceof Error ? error.message : String(error));
  return new ToolError(
    `${name} could not be reached at ${url.origin} (${reason}); check the network or the provider's address.`,
    {
      cause: error,
    },
  );
}
