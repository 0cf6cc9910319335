import type { Dispatcher } from 'undici';
import { getProviderJson } from './provider-request.js';
import { RateLimiter } from './rate-limiter.js';
import type { WebSearchProvider, WebSearchRequest, WebSearchResult } from './web-search-provider.js';

/** How to reach a SearXNG instance. */
export interface SearxngOptions {
  /** The instance's base URL, e.g. `http://localhost:8888`. */
  url: string;
  requestsPerSecond?: number;
  timeoutMs?: number;
  maxRetryAfterMs?: number;
  dispatcher?: Dispatcher;
}

/** The part of SearXNG's `format=json` answer we read (https://docs.searxng.org/dev/search_api.html). */
interface SearxngResponse {
  results?: { title?: string; url?: string; content?: string; publishedDate?: string | null }[];
}

/** A SearXNG instance's search API; the instance must have `json` among its `search.formats`. */
export function searxngProvider(options: SearxngOptions): WebSearchProvider {
  const base = new URL(options.url);
  const limiter = new RateLimiter(1000 / (options.requestsPerSecond ?? 2));
  return {
    name: 'SearXNG',
    async search(request: WebSearchRequest, signal: AbortSignal): Promise<WebSearchResult[]> {
      const url = new URL('search', base.href.endsWith('/') ? base : `${base.href}/`);
      url.searchParams.set('q', request.query);
      url.searchParams.set('format', 'json');
      url.searchParams.set('pageno', String(request.offset + 1));
      const body = (await getProviderJson(url, {
        providerName: 'SearXNG',
        limiter,
        timeoutMs: options.timeoutMs ?? 15_000,
        maxRetryAfterMs: options.maxRetryAfterMs ?? 10_000,
        signal,
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        describeStatus: (status) =>
          status === 403
            ? 'The SearXNG instance refused the JSON format; add "json" to search.formats in its settings.yml.'
            : undefined,
      })) as SearxngResponse;
      return (body.results ?? [])
        .filter((result) => typeof result.url === 'string')
        .slice(0, request.count)
        .map((result) => ({
          title: result.title ?? (result.url as string),
          url: result.url as string,
          snippet: result.content ?? '',
          ...(result.publishedDate ? { age: result.publishedDate } : {}),
        }));
    },
  };
}
