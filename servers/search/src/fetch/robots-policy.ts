import { ToolError } from '@mcpkit/server-kit';
import { parseRobotsRules } from './robots-rules.js';

/** Fetches a robots.txt: resolves with its status and text, or rejects when it could not be read at all. */
export type RobotsFetcher = (url: URL, signal: AbortSignal) => Promise<{ status: number; text: string }>;

interface CachedRobots {
  allows(url: URL): boolean;
  expires: number;
}

const cacheLimit = 200;
const cacheMs = 10 * 60 * 1000;

/**
 * robots.txt as RFC 9309 reads it: a 2xx file is obeyed for our user agent, a 4xx means no rules, and a 5xx or a
 * failed fetch means we may not crawl (an unreadable robots.txt is not permission). Answers are cached per origin.
 */
export class RobotsPolicy {
  private readonly cache = new Map<string, CachedRobots>();

  constructor(
    private readonly userAgentToken: string,
    private readonly fetchRobots: RobotsFetcher,
  ) {}

  /** Throws a ToolError when robots.txt forbids `url` or could not be read. */
  async assertAllowed(url: URL, signal: AbortSignal): Promise<void> {
    const robots = await this.robotsFor(url, signal);
    if (!robots.allows(url)) {
      throw new ToolError(
        `${url.origin}/robots.txt does not allow automated fetching of ${url.pathname}; the page was not fetched.`,
      );
    }
  }

  private async robotsFor(url: URL, signal: AbortSignal): Promise<CachedRobots> {
    const cached = this.cache.get(url.origin);
    if (cached && cached.expires > Date.now()) return cached;
    const robotsUrl = new URL('/robots.txt', url.origin);
    let answer: { status: number; text: string };
    try {
      answer = await this.fetchRobots(robotsUrl, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolError(
        `Could not read ${robotsUrl.href} (${reason.replace(/\.$/, '')}), so the page was not fetched: an unreadable robots.txt is not permission.`,
      );
    }
    let entry: CachedRobots;
    if (answer.status >= 200 && answer.status < 300) {
      // Parsed once per origin and matched in about the URL's length per rule, on every fetch and every hop.
      const rules = parseRobotsRules(answer.text, this.userAgentToken);
      entry = { allows: (target) => rules.allows(target.pathname + target.search), expires: 0 };
    } else if (answer.status >= 400 && answer.status < 500) {
      entry = { allows: () => true, expires: 0 };
    } else {
      throw new ToolError(
        `${robotsUrl.href} answered HTTP ${answer.status}, so the page was not fetched: an unreadable robots.txt is not permission.`,
      );
    }
    entry.expires = Date.now() + cacheMs;
    if (this.cache.size >= cacheLimit) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(url.origin, entry);
    return entry;
  }
}
