import { setTimeout as sleep } from 'node:timers/promises';
import { errors, request } from 'undici';
import { errorMessage, HostError } from '../errors.js';

/** How a request to a provider is sent and retried. */
export interface ProviderRequestOptions {
  /** Names the provider in error messages, e.g. `OpenAI-compatible API at https://api.openai.com/v1`. */
  label: string;
  /** The environment variable holding the key, named in a 401 message. */
  keyVariable: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
  /** Retries after 429, 5xx and network failures (default 3). */
  maxRetries?: number;
  /** Longest wait honoured from Retry-After, and the cap of the backoff (default 60 s). */
  maxRetryDelayMs?: number;
  /** First backoff delay when the provider gives no Retry-After (default 500 ms, doubling). */
  initialRetryDelayMs?: number;
  /** Time limit for the response headers and between body chunks (default 120 s). */
  timeoutMs?: number;
  /** Most bytes of a streamed answer (default 32 MiB). */
  maxResponseBytes?: number;
}

const retryableStatuses = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

/** Most bytes of one streamed answer read before giving up on a provider that does not stop. */
export const defaultMaxResponseBytes = 32 * 1024 * 1024;
const maxErrorBodyBytes = 64 * 1024;

/** Passes a body through, failing once it has carried more than `max` bytes. */
async function* limitBytes(body: AsyncIterable<Uint8Array>, max: number, label: string): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > max) {
      throw new HostError(
        'MODEL_RESPONSE_INVALID',
        `${label} streamed more than ${max} bytes; the answer was cut off.`,
      );
    }
    yield chunk;
  }
}

/** Reads an error body up to `max` bytes; the rest is not needed to show the provider's message. */
async function readCapped(body: AsyncIterable<Uint8Array> & { destroy?(): void }, max: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    total += chunk.length;
    if (total >= max) {
      body.destroy?.();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, max);
}

/** Reads Retry-After (seconds or an HTTP date) or the `retry-after-ms` some providers send. */
export function retryAfterMs(
  headers: Record<string, string | string[] | undefined>,
  now = Date.now(),
): number | undefined {
  const milliseconds = Number(headers['retry-after-ms']);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers['retry-after'];
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The provider's own words from an error body: `error.message` in both APIs' formats, or the text itself. */
export function providerMessage(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof json.error === 'string') return json.error;
    if (typeof json.error?.message === 'string') return json.error.message;
    if (typeof json.message === 'string') return json.message;
  } catch {
    // Not JSON: show the text.
  }
  return body.trim().slice(0, 500) || '(empty body)';
}

function failure(options: ProviderRequestOptions, status: number, body: string): HostError {
  const message = providerMessage(body);
  if (status === 401 || status === 403) {
    return new HostError(
      'MODEL_REQUEST_FAILED',
      `${options.label} refused the API key (${status}): ${message}${/[.!?]$/.test(message) ? '' : '.'} Check ${options.keyVariable}.`,
    );
  }
  return new HostError('MODEL_REQUEST_FAILED', `${options.label} answered ${status}: ${message}`);
}

/**
 * POSTs JSON to a provider and returns the streaming body of a 2xx answer. Retries 429, 5xx and network failures with
 * backoff, waiting as long as Retry-After says (up to a cap); any other status is a HostError quoting the provider.
 */
export async function postToProvider(options: ProviderRequestOptions): Promise<AsyncIterable<Uint8Array>> {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelay = options.maxRetryDelayMs ?? 60_000;
  const initialDelay = options.initialRetryDelayMs ?? 500;
  const timeout = options.timeoutMs ?? 120_000;
  const payload = JSON.stringify(options.body);
  for (let attempt = 0; ; attempt++) {
    let wait: number;
    try {
      const response = await request(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
        body: payload,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (response.statusCode >= 200 && response.statusCode < 300) {
        return limitBytes(response.body, options.maxResponseBytes ?? defaultMaxResponseBytes, options.label);
      }
      const text = await readCapped(response.body, maxErrorBodyBytes);
      if (!retryableStatuses.has(response.statusCode) || attempt >= maxRetries) {
        throw failure(options, response.statusCode, text);
      }
      wait = Math.min(retryAfterMs(response.headers) ?? initialDelay * 2 ** attempt, maxDelay);
    } catch (error) {
      if (HostError.isInstance(error)) throw error;
      if (options.signal?.aborted || error instanceof errors.RequestAbortedError) throw error;
      if (attempt >= maxRetries) {
        throw new HostError('MODEL_REQUEST_FAILED', `${options.label} could not be reached: ${errorMessage(error)}`, {
          cause: error,
        });
      }
      wait = Math.min(initialDelay * 2 ** attempt, maxDelay);
    }
    await sleep(wait, undefined, options.signal ? { signal: options.signal } : {});
  }
}
