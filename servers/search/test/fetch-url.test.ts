import type { LookupFunction } from 'node:net';
import { connectTestClient, resultText } from '@mcpkit/server-kit/testing';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPageFetcher, type PageFetcher } from '../src/fetch/page-fetcher.js';
import { AddressRefusedError, createGuardedDispatcher } from '../src/fetch/ssrf-guard.js';
import { type LoopbackSite, startLoopbackSite } from './loopback-site.js';
import { webOnlyServer } from './web-only-server.js';

let site: LoopbackSite;
const fetchers: PageFetcher[] = [];

function fetcher(options: Parameters<typeof createPageFetcher>[0] = {}): PageFetcher {
  const created = createPageFetcher({ allowPrivate: true, ...options });
  fetchers.push(created);
  return created;
}

beforeAll(async () => {
  site = await startLoopbackSite();
});
afterAll(async () => {
  await site.close();
});
afterEach(async () => {
  site.robots = { status: 404, body: '' };
  await Promise.all(fetchers.splice(0).map((created) => created.close()));
});

describe('fetch_url content', () => {
  it('turns an article into Markdown without navigation, scripts or footer', async () => {
    const page = await fetcher().fetchPage(`${site.origin}/article`, { raw: false });
    expect(page.kind).toBe('markdown');
    expect(page.title).toMatch(/^Release notes/);
    expect(page.content).toContain('**search speed**');
    expect(page.content).toContain(`[bug 3](${site.origin}/bugs/3)`);
    expect(page.content).toContain(`[notes](${site.origin}/notes/3.html)`);
    expect(page.content).not.toContain('window.tracking');
    expect(page.content).not.toContain('Login');
  });

  it('decompresses gzip and passes text and JSON through', async () => {
    const page = await fetcher().fetchPage(`${site.origin}/gzip-article`, { raw: false });
    expect(page.content).toContain('Paragraph 39');
    expect((await fetcher().fetchPage(`${site.origin}/plain`, { raw: false })).content).toBe(
      'Just plain text.\nSecond line.',
    );
    expect((await fetcher().fetchPage(`${site.origin}/data.json`, { raw: false })).content).toContain('"answer":42');
  });

  it('returns raw HTML when asked', async () => {
    const page = await fetcher().fetchPage(`${site.origin}/article`, { raw: true });
    expect(page.content).toContain('<nav>');
  });

  it('refuses binary types and PDF with a sentence saying what they were', async () => {
    await expect(fetcher().fetchPage(`${site.origin}/image`, { raw: false })).rejects.toThrow(/image\/png, not text/);
    await expect(fetcher().fetchPage(`${site.origin}/paper.pdf`, { raw: false })).rejects.toThrow(/is a PDF/);
    await expect(fetcher().fetchPage(`${site.origin}/nothing-here`, { raw: false })).rejects.toThrow(/HTTP 404/);
  });

  it('pages long content through the tool with start_index', async () => {
    const server = webOnlyServer({ allowPrivate: true });
    await using client = await connectTestClient(server);
    const first = await client.callToolText('fetch_url', { url: `${site.origin}/article`, max_length: 500 });
    const next = /start_index=(\d+)/.exec(first)?.[1];
    expect(next).toBe('500');
    const second = await client.callToolText('fetch_url', {
      url: `${site.origin}/article`,
      max_length: 500,
      start_index: Number(next),
    });
    expect(second).toContain('Showing characters 500-1000');
    const past = await client.callToolText('fetch_url', { url: `${site.origin}/plain`, start_index: 10_000 });
    expect(past).toMatch(/past its end/);
    await server.close();
  });
});

describe('fetch_url limits', () => {
  it('follows redirects up to the limit and no further', async () => {
    const limited = fetcher({ limits: { maxRedirects: 3 } });
    expect((await limited.fetchPage(`${site.origin}/redirect/3`, { raw: false })).url).toBe(`${site.origin}/plain`);
    await expect(limited.fetchPage(`${site.origin}/redirect/4`, { raw: false })).rejects.toThrow(
      /redirected more than 3 times/,
    );
  });

  it('cuts a body at the byte cap and says so', async () => {
    const page = await fetcher({ limits: { maxBytes: 1024 * 1024 } }).fetchPage(`${site.origin}/big`, { raw: false });
    expect(page.truncated).toBe(true);
    expect(page.content.length).toBe(1024 * 1024);
  });

  it('refuses a body that decompresses past the decoded cap', async () => {
    await expect(
      fetcher({ limits: { maxDecodedBytes: 1024 * 1024 } }).fetchPage(`${site.origin}/bomb`, { raw: false }),
    ).rejects.toThrow(/decompresses to more than 1 MB/);
  });

  it('gives up after the time limit', async () => {
    const started = Date.now();
    await expect(
      fetcher({ limits: { timeoutMs: 800 } }).fetchPage(`${site.origin}/slow`, { raw: false }),
    ).rejects.toThrow(/did not finish within 0.8 seconds/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses schemes other than http and https, also on redirect', async () => {
    await expect(fetcher().fetchPage('file:///etc/passwd', { raw: false })).rejects.toThrow(/Only http and https/);
    await expect(fetcher().fetchPage('ftp://example.com/', { raw: false })).rejects.toThrow(/Only http and https/);
    await expect(fetcher().fetchPage('not a url', { raw: false })).rejects.toThrow(/not a valid URL/);
    await expect(fetcher().fetchPage(`${site.origin}/to-file`, { raw: false })).rejects.toThrow(/Only http and https/);
  });
});

describe('fetch_url robots.txt', () => {
  it('obeys a Disallow rule for our user agent', async () => {
    site.robots = { status: 200, body: 'User-agent: *\nDisallow: /private/\n' };
    await expect(fetcher().fetchPage(`${site.origin}/private/page`, { raw: false })).rejects.toThrow(
      /robots\.txt does not allow/,
    );
    expect((await fetcher().fetchPage(`${site.origin}/plain`, { raw: false })).content).toContain('plain');
  });

  it('treats a missing robots.txt (4xx) as no rules', async () => {
    site.robots = { status: 404, body: '' };
    expect((await fetcher().fetchPage(`${site.origin}/private/page`, { raw: false })).content).toBe('private page');
  });

  it.each([
    ['a server error', { status: 503, body: 'down' }, /answered HTTP 503/],
    ['a reset connection', 'reset' as const, /Could not read .*robots\.txt/],
  ])('does not treat %s on robots.txt as permission', async (_name, robots, message) => {
    site.robots = robots;
    const before = site.requests.length;
    await expect(fetcher().fetchPage(`${site.origin}/plain`, { raw: false })).rejects.toThrow(message);
    expect(site.requests.slice(before)).not.toContain('/plain');
  });

  it('does not treat a robots.txt that never answers as permission', async () => {
    site.robots = 'hang';
    const before = site.requests.length;
    await expect(
      fetcher({ limits: { timeoutMs: 800 } }).fetchPage(`${site.origin}/plain`, { raw: false }),
    ).rejects.toThrow(/robots\.txt|did not finish/);
    expect(site.requests.slice(before)).toEqual(['/robots.txt']);
  });

  it('can be told to ignore robots.txt', async () => {
    site.robots = { status: 200, body: 'User-agent: *\nDisallow: /\n' };
    const page = await fetcher({ respectRobots: false }).fetchPage(`${site.origin}/private/page`, { raw: false });
    expect(page.content).toBe('private page');
  });
});

describe('fetch_url SSRF guard', () => {
  it.each([
    (port: number) => `http://127.0.0.1:${port}/plain`,
    (port: number) => `http://2130706433:${port}/plain`,
    (port: number) => `http://0x7f.0.0.1:${port}/plain`,
    (port: number) => `http://0177.0.0.1:${port}/plain`,
    (port: number) => `http://127.1:${port}/plain`,
    (port: number) => `http://[::ffff:127.0.0.1]:${port}/plain`,
    (port: number) => `http://[::1]:${port}/plain`,
    (port: number) => `http://localhost:${port}/plain`,
  ])('refuses the loopback site by default: %s', async (url) => {
    const before = site.requests.length;
    await expect(fetcher({ allowPrivate: false }).fetchPage(url(site.port), { raw: false })).rejects.toThrow(
      AddressRefusedError,
    );
    expect(site.requests.length).toBe(before);
  });

  it('refuses a name that resolves to a private address', async () => {
    const lookup = ((_hostname, options, callback) => {
      const answer = [{ address: '127.0.0.1', family: 4 }];
      if ((options as { all?: boolean }).all)
        (callback as (error: null, addresses: typeof answer) => void)(null, answer);
      else callback(null, '127.0.0.1', 4);
    }) as LookupFunction;
    await expect(
      fetcher({ allowPrivate: false, lookup }).fetchPage(`http://public.example:${site.port}/plain`, { raw: false }),
    ).rejects.toThrow(/resolves to 127\.0\.0\.1 is a loopback address/);
  });

  it('checks the address actually connected to, even when the URL check is skipped', async () => {
    const dispatcher = createGuardedDispatcher({ allowPrivate: false });
    const error = await request(`${site.origin}/plain`, { dispatcher }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AddressRefusedError);
    expect(String((error as Error).message)).toMatch(/127\.0\.0\.1 is a loopback address/);
    await dispatcher.close();
  });

  it('refuses redirects to metadata addresses, in every form, even with --allow-private', async () => {
    await expect(fetcher().fetchPage(`${site.origin}/to-metadata`, { raw: false })).rejects.toThrow(/metadata/);
    await expect(fetcher().fetchPage(`${site.origin}/to-mapped-metadata`, { raw: false })).rejects.toThrow(/metadata/);
  });

  it('answers a refused fetch through the tool with one isError sentence', async () => {
    const server = webOnlyServer();
    await using client = await connectTestClient(server);
    const result = await client.callTool('fetch_url', { url: `${site.origin}/plain` });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^Refused to fetch http:\/\/127\.0\.0\.1:\d+: .*--allow-private\.$/);
    await server.close();
  });
});
