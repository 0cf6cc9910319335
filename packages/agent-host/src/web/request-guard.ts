import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** What the guard lets in. */
export interface GuardOptions {
  /** The per-run secret every request but the page's static code must carry. */
  token: string;
  /** The port the server listens on (Host and Origin must name it). */
  port: number;
  /** The address given with `--listen`, when the page is served beyond loopback. */
  listen?: string;
}

/** Why a request is refused, as an HTTP status and a sentence; undefined lets it through. */
export type Refusal = { status: number; message: string } | undefined;

const loopbackNames = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The host name of a `Host` header or an origin's authority, with the port checked against ours. */
function hostName(authority: string, port: number): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+):(\d+)$/i.exec(authority);
  if (!match || Number(match[2]) !== port) return undefined;
  return match[1]?.toLowerCase();
}

/**
 * Whether a host name may address the page: a loopback name always; with `--listen` the address given, and for a
 * wildcard address any IP literal (a DNS-rebinding page would come under a domain name, never an IP literal).
 */
function allowedName(name: string, listen: string | undefined): boolean {
  if (loopbackNames.has(name)) return true;
  if (!listen) return false;
  const bare = name.replace(/^\[|\]$/g, '');
  if (bare === listen.toLowerCase()) return true;
  return (listen === '0.0.0.0' || listen === '::') && isIP(bare) !== 0;
}

/** Compares secrets in constant time. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a request's Host (against DNS rebinding), its Origin when it has one (against other sites' pages), and,
 * unless `needsToken` is false, the run's token in the `token` query parameter or the `x-mcpkit-token` header.
 */
export function refuseRequest(request: IncomingMessage, url: URL, options: GuardOptions, needsToken = true): Refusal {
  const name = hostName(request.headers.host ?? '', options.port);
  if (!name || !allowedName(name, options.listen)) {
    return { status: 421, message: 'This server answers only to its own address (Host header refused).' };
  }
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const match = /^http:\/\/(.+)$/.exec(origin);
    const originName = match?.[1] ? hostName(match[1], options.port) : undefined;
    if (!originName || !allowedName(originName, options.listen)) {
      return { status: 403, message: 'Requests from other sites are refused (Origin header).' };
    }
  }
  if (!needsToken) return undefined;
  const header = request.headers['x-mcpkit-token'];
  const given = url.searchParams.get('token') ?? (typeof header === 'string' ? header : '');
  if (!sameSecret(given, options.token)) {
    return { status: 401, message: 'Open the address mcpkit-host web printed: it carries the token of this run.' };
  }
  return undefined;
}
