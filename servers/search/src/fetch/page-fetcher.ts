import type { LookupFunction } from 'node:net';
import { ToolError } from '@mcpkit/server-kit';
import { defaultFetchLimits, type FetchLimits, guardedFetch, parseFetchUrl } from './guarded-fetch.js';
import { type PageContent, toPageContent } from './page-content.js';
import { RobotsPolicy } from './robots-policy.js';
import { type AddressPolicy, createGuardedDispatcher } from './ssrf-guard.js';

/** The product token robots.txt rules are matched against. */
export const robotsUserAgent = 'mcpkit-search';
const userAgent = `${robotsUserAgent}/0.1 (MCP fetch_url; autonomous, on behalf of a user)`;

/** How pages are fetched. */
export interface PageFetcherOptions {
  /** Reach loopback and private addresses too (cloud metadata addresses stay refused). */
  allowPrivate?: boolean;
  /** Obey robots.txt (the default). */
  respectRobots?: boolean;
  limits?: Partial<FetchLimits>;
  /** DNS resolution; tests inject one, the guard checks whatever it answers. */
  lookup?: LookupFunction;
}

/** A fetched page ready for the model. */
export interface FetchedPage extends PageContent {
  /** Where the page was finally found, after redirects. */
  url: string;
  /** True when the body was cut at the byte cap. */
  truncated: boolean;
}

/** Fetches pages safely; one per server, holding the guarded connection pool and the robots.txt cache. */
export interface PageFetcher {
  fetchPage(url: string, options: { raw: boolean; signal?: AbortSignal }): Promise<FetchedPage>;
  close(): Promise<void>;
}

/** Builds the page fetcher: SSRF guard, robots.txt policy, caps and time limits together. */
export function createPageFetcher(options: PageFetcherOptions = {}): PageFetcher {
  const policy: AddressPolicy = { allowPrivate: options.allowPrivate ?? false };
  const limits: FetchLimits = { ...defaultFetchLimits, ...options.limits };
  const dispatcher = createGuardedDispatcher(policy, {
    connectTimeoutMs: Math.min(10_000, limits.timeoutMs),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  const robotsLimits: FetchLimits = { ...limits, maxBytes: 512 * 1024, maxDecodedBytes: 2 * 1024 * 1024 };
  const robots = new RobotsPolicy(robotsUserAgent, async (url, signal) => {
    const fetched = await guardedFetch(url, { dispatcher, policy, limits: robotsLimits, userAgent, signal });
    return { status: fetched.status, text: fetched.body.toString('utf8') };
  });
  const respectRobots = options.respectRobots ?? true;
  return {
    async fetchPage(value, { raw, signal }) {
      const url = parseFetchUrl(value);
      const fetched = await guardedFetch(url, {
        dispatcher,
        policy,
        limits,
        userAgent,
        ...(signal ? { signal } : {}),
        ...(respectRobots
          ? { beforeRequest: (target, requestSignal) => robots.assertAllowed(target, requestSignal) }
          : {}),
      });
      if (fetched.status >= 400) {
        throw new ToolError(`${fetched.url.href} answered HTTP ${fetched.status}; the page could not be fetched.`);
      }
      const content = await toPageContent(fetched, raw, {
        timeoutMs: limits.conversionTimeoutMs,
        ...(signal ? { signal } : {}),
      });
      return { ...content, url: fetched.url.href, truncated: fetched.truncated };
    },
    close: () => dispatcher.close(),
  };
}
