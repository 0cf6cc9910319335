import type { PageFetcher, PageFetcherOptions } from './page-fetcher.js';

/**
 * A page fetcher built on the first fetch: undici, the SSRF guard and the HTML converter load then, not when the
 * server starts (a `tools/list` needs none of them, and many sessions never fetch a page).
 */
export function createLazyPageFetcher(options: PageFetcherOptions): PageFetcher {
  let fetcher: Promise<PageFetcher> | undefined;
  return {
    async fetchPage(url, request) {
      fetcher ??= import('./page-fetcher.js').then((module) => module.createPageFetcher(options));
      return (await fetcher).fetchPage(url, request);
    },
    async close() {
      if (fetcher) await (await fetcher).close();
    },
  };
}
