import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listener on the loopback interface that receives the browser at the end of a sign-in (RFC 8252 §7.3). */
export interface LoopbackRedirect {
  /** The redirect URI to register and send: `http://127.0.0.1:PORT/callback`. */
  readonly url: string;
  /** Resolves with the query of the next request to the callback path (the authorization response). */
  nextCallback(timeoutMs: number): Promise<URLSearchParams>;
  close(): Promise<void>;
}

const callbackPath = '/callback';

const page = (title: string, sentence: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${sentence}</p>\n`;

/** Listens on 127.0.0.1 (the given port, else a free one) for the authorization response. */
export async function startLoopbackRedirect(port = 0): Promise<LoopbackRedirect> {
  let deliver: ((query: URLSearchParams) => void) | undefined;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== callbackPath || request.method !== 'GET') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.\n');
      return;
    }
    const signedIn = url.searchParams.has('code');
    response
      .writeHead(signedIn ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(
        signedIn
          ? page('Signed in', 'mcpkit-host received the sign-in. You can close this tab.')
          : page('Sign-in failed', 'The sign-in did not complete. Go back to mcpkit-host for the reason.'),
      );
    deliver?.(url.searchParams);
    deliver = undefined;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}${callbackPath}`,
    nextCallback(timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          deliver = undefined;
          reject(new Error(`No sign-in arrived within ${Math.round(timeoutMs / 1000)} s.`));
        }, timeoutMs);
        timer.unref();
        deliver = (query) => {
          clearTimeout(timer);
          resolve(query);
        };
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
