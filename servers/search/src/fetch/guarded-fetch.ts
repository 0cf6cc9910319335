import { ToolError } from '@mcpkit/server-kit';
import { type Dispatcher, request } from 'undici';
import { formatSeconds } from '../format-duration.js';
import { decodeBody } from './content-decoding.js';
import { type AddressPolicy, AddressRefusedError, assertHostAllowed } from './ssrf-guard.js';

/** The limits of one fetch. */
export interface FetchLimits {
  /** Redirects followed before giving up. */
  maxRedirects: number;
  /** Bytes read off the wire (compressed); the rest of a larger body is not read. */
  maxBytes: number;
  /** Bytes after decompression; a body that inflates past this is refused (a decompression bomb). */
  maxDecodedBytes: number;
  /** Time limit of the whole fetch, redirects included, in milliseconds. */
  timeoutMs: number;
  /** Time limit of turning the page into Markdown (on a worker thread); past it the page comes as plain text. */
  conversionTimeoutMs: number;
}

/** Defaults: 5 redirects, 5 MB on the wire, 20 MB decoded, 20 seconds to fetch, 10 seconds to convert. */
export const defaultFetchLimits: FetchLimits = {
  maxRedirects: 5,
  maxBytes: 5 * 1024 * 1024,
  maxDecodedBytes: 20 * 1024 * 1024,
  timeoutMs: 20_000,
  conversionTimeoutMs: 10_000,
};

/** A fetched body with where it finally came from. */
export interface FetchedBody {
  url: URL;
  status: number;
  contentType: string;
  body: Buffer;
  /** True when the body was cut at `maxBytes`. */
  truncated: boolean;
}

/** What a guarded fetch needs besides the URL. */
export interface GuardedFetchOptions {
  dispatcher: Dispatcher;
  policy: AddressPolicy;
  limits: FetchLimits;
  userAgent: string;
  signal?: AbortSignal;
  /** Runs before each request, redirects included (robots.txt is checked here). */
  beforeRequest?(url: URL, signal: AbortSignal): Promise<void>;
}

/** Only http and https; anything else is refused before any work. */
export function parseFetchUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ToolError(`${JSON.stringify(value)} is not a valid URL; pass an absolute http:// or https:// URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(`Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}.`);
  }
  return url;
}

/**
 * GETs a URL under the SSRF guard: the host is checked before each request and the connected address by the
 * dispatcher, redirects are followed by hand (each hop checked again) up to a limit, the body is capped on the wire
 * and after decompression, and the whole fetch has one time limit.
 */
export async function guardedFetch(start: URL, options: GuardedFetchOptions): Promise<FetchedBody> {
  const { limits } = options;
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let url = start;
  try {
    for (let redirects = 0; ; redirects++) {
      assertHostAllowed(url, options.policy);
      await options.beforeRequest?.(url, signal);
      const response = await request(url, {
        method: 'GET',
        dispatcher: options.dispatcher,
        signal,
        headers: {
          'user-agent': options.userAgent,
          accept: 'text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
      });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && location) {
        await response.body.dump();
        if (redirects >= limits.maxRedirects) {
          throw new ToolError(`${start.href} redirected more than ${limits.maxRedirects} times; giving up.`);
        }
        const next = parseFetchUrl(new URL(Array.isArray(location) ? (location[0] as string) : location, url).href);
        url = next;
        continue;
      }
      const { bytes, truncated } = await readCapped(response.body, limits.maxBytes);
      const encoding = String(response.headers['content-encoding'] ?? '')
        .toLowerCase()
        .trim();
      const body = await decodeBody(bytes, encoding, limits.maxDecodedBytes, truncated);
      const contentType = String(response.headers['content-type'] ?? '');
      return { url, status: response.statusCode, contentType, body, truncated };
    }
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    const refusal = findRefusal(error);
    if (refusal) throw refusal;
    if (timeout.aborted) {
      throw new ToolError(`${url.href} did not finish within ${formatSeconds(limits.timeoutMs)}.`);
    }
    if (options.signal?.aborted) throw error;
    const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
    throw new ToolError(`Could not fetch ${url.href} (${code ?? (error instanceof Error ? error.message : error)}).`, {
      cause: error,
    });
  }
}

function findRefusal(error: unknown): AddressRefusedError | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof AddressRefusedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    if (size + buffer.byteLength > maxBytes) {
      chunks.push(buffer.subarray(0, maxBytes - size));
      body.destroy();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    size += buffer.byteLength;
    chunks.push(buffer);
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}
