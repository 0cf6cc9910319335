import type { Dispatcher } from 'undici';
import { getProviderJson } from './provider-request.js';
import { RateLimiter } from './rate-limiter.js';
import type { WebSearchProvider, WebSearchRequest, WebSearchResult } from './web-search-provider.js';

/** How to reach Brave Search. */
export interface BraveOptions {
  apiKey: string;
  /** The web search endpoint; tests point it at a loopback server. */
  endpoint?: string;
  /** Brave's free plan allows one request a second. */
  requestsPerSecond?: number;
  timeoutMs?: number;
  maxRetryAfterMs?: number;
  dispatcher?: Dispatcher;
}

/** The part of Brave's web search response we read (https://api-dashboard.search.brave.com/app/documentation). */
interface BraveResponse {
  web?: { results?: { title?: string; url?: string; description?: string; age?: string; page_age?: string }[] };
}

const stripTags = (value: string) => value.replace(/<\/?strong>/g, '**').replace(/<[^>]+>/g, '');

/** Brave Search's web search API: `X-Subscription-Token` header, `count` up to 20, `offset` in pages up to 9. */
export function braveProvider(options: BraveOptions): WebSearchProvider {
  const endpoint = options.endpoint ?? 'https://api.search.brave.com/res/v1/web/search';
  const limiter = new RateLimiter(1000 / (options.requestsPerSecond ?? 1));
  return {
    name: 'Brave Search',
    async search(request: WebSearchRequest, signal: AbortSignal): Promise<WebSearchResult[]> {
      const url = new URL(endpoint);
      url.searchParams.set('q', request.query);
      url.searchParams.set('count', String(request.count));
      url.searchParams.set('offset', String(request.offset));
      const body = (await getProviderJson(url, {
        providerName: 'Brave Search',
        headers: { 'x-subscription-token': options.apiKey, 'accept-encoding': 'identity' },
        limiter,
        timeoutMs: options.timeoutMs ?? 15_000,
        maxRetryAfterMs: options.maxRetryAfterMs ?? 10_000,
        signal,
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        describeStatus: (status) =>
          status === 401 || status === 403
            ? 'Brave Search refused the API key; check BRAVE_API_KEY.'
            : status === 422
              ? 'Brave Search could not use these arguments; shorten the query or lower count/offset.'
              : undefined,
      })) as BraveResponse;
      return (body.web?.results ?? [])
        .filter((result) => typeof result.url === 'string')
        .slice(0, request.count)
        .map((result) => ({
          title: stripTags(result.title ?? result.url ?? ''),
          url: result.url as string,
          snippet: stripTags(result.description ?? ''),
          ...((result.page_age ?? result.age) ? { age: (result.age ?? result.page_age) as string } : {}),
        }));
    },
  };
}
