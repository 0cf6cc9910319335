import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '../errors.js';
import type { EventStream } from './event-stream.js';
import { pageHtml } from './page-html.js';
import { pageStyle } from './page-style.js';
import type { PendingQuestions } from './pending-questions.js';
import type { PageAnswer } from './protocol.js';
import { type GuardOptions, refuseRequest } from './request-guard.js';
import { attachTargetFrom, isStringRecord } from './web-attachments.js';
import type { WebSession } from './web-session.js';

/** What the web server serves. */
export interface WebServerOptions {
  session: WebSession;
  stream: EventStream;
  questions: PendingQuestions;
  /** The per-run secret of the page's address. */
  token: string;
  /** The interface to listen on (default 127.0.0.1); anything else only with `--listen`. */
  hostname?: string;
  /** The port (default: any free one). */
  port?: number;
}

/** A running web server. */
export interface WebServer {
  /** The page's address, token included. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The page's compiled browser code, beside this file once built. */
const pageDirectory = new URL('./page/', import.meta.url);
const maxBodyBytes = 1_000_000;

/** No script but the page's own, no inline script or style, no requests elsewhere, no framing by other sites. */
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders = {
  'content-security-policy': contentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function reply(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { ...securityHeaders, 'content-type': type });
  response.end(body);
}

function replyJson(response: ServerResponse, status: number, value: unknown): void {
  reply(response, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) throw new Error('JSON expected');
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw new Error('body too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function serveAsset(response: ServerResponse, name: string): Promise<void> {
  if (name === 'style.css') return reply(response, 200, 'text/css; charset=utf-8', pageStyle);
  if (!/^[a-z][a-z-]*\.js$/.test(name)) return reply(response, 404, 'text/plain; charset=utf-8', 'Not found.');
  try {
    const code = await readFile(new URL(name, pageDirectory), 'utf8');
    reply(response, 200, 'text/javascript; charset=utf-8', code);
  } catch {
    reply(response, 404, 'text/plain; charset=utf-8', 'Not found.');
  }
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  options: WebServerOptions,
  guard: GuardOptions,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://page.invalid');
  const asset = /^\/assets\/([^/]+)$/.exec(url.pathname)?.[1];
  // The page's code and style are the same for everyone; every other route needs the run's token.
  // The browser asks for an icon unprompted and without the token; there is none.
  const icon = url.pathname === '/favicon.ico';
  const refusal = refuseRequest(request, url, guard, asset === undefined && !icon);
  if (refusal) return reply(response, refusal.status, 'text/plain; charset=utf-8', refusal.message);
  const route = `${request.method} ${asset !== undefined ? '/assets' : url.pathname}`;
  if (icon) return reply(response, 204, 'image/x-icon', '');
  switch (route) {
    case 'GET /assets':
      return serveAsset(response, asset ?? '');
    case 'GET /':
      return reply(response, 200, 'text/html; charset=utf-8', pageHtml);
    case 'GET /events':
      return options.stream.attach(response, options.session.greeting());
    case 'POST /api/message': {
      const body = (await readJson(request)) as { text?: unknown };
      if (typeof body.text !== 'string' || body.text.trim() === '') {
        return replyJson(response, 400, { error: 'A message needs some text.' });
      }
      const started = options.session.send(body.text);
      return replyJson(response, started ? 202 : 409, started ? { ok: true } : { error: 'A run is going on.' });
    }
    case 'POST /api/attach': {
      const target = attachTargetFrom(await readJson(request));
      if (typeof target === 'string') return replyJson(response, 400, { error: target });
      try {
        await options.session.attach(target);
        return replyJson(response, 200, { ok: true });
      } catch (error) {
        return replyJson(response, 400, { error: errorMessage(error) });
      }
    }
    case 'POST /api/prompt': {
      const body = (await readJson(request)) as { server?: unknown; name?: unknown; arguments?: unknown };
      if (typeof body.server !== 'string' || typeof body.name !== 'string') {
        return replyJson(response, 400, { error: 'A prompt needs its server and name.' });
      }
      const values = body.arguments ?? {};
      if (!isStringRecord(values))
        return replyJson(response, 400, { error: "A prompt's arguments must be an object of strings." });
      try {
        const started = await options.session.usePrompt(body.server, body.name, values);
        return replyJson(response, started ? 202 : 409, started ? { ok: true } : { error: 'A run is going on.' });
      } catch (error) {
        return replyJson(response, 400, { error: errorMessage(error) });
      }
    }
    case 'POST /api/stop':
      return replyJson(response, 200, { stopped: options.session.stop() });
    case 'POST /api/answer': {
      const taken = options.questions.answer((await readJson(request)) as PageAnswer);
      return replyJson(response, taken ? 200 : 409, taken ? { ok: true } : { error: 'That question is closed.' });
    }
    default:
      return reply(response, 404, 'text/plain; charset=utf-8', 'Not found.');
  }
}

/** Serves the page, its event stream and its few actions, on loopback unless another interface is given. */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  const guard: GuardOptions = {
    token: options.token,
    port: 0,
    ...(hostname !== '127.0.0.1' ? { listen: hostname } : {}),
  };
  const server = createServer((request, response) => {
    handle(request, response, options, guard).catch(() => {
      if (!response.headersSent) replyJson(response, 400, { error: 'Malformed request.' });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  guard.port = port;
  const shown = hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname;
  const authority = shown.includes(':') ? `[${shown}]:${port}` : `${shown}:${port}`;
  return {
    url: `http://${authority}/?token=${options.token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        options.stream.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
