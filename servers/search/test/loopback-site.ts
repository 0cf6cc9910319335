import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** A small web site on 127.0.0.1 for fetch_url tests; `robots` decides how /robots.txt answers. */
export interface LoopbackSite {
  origin: string;
  port: number;
  robots: { status: number; body: string } | 'hang' | 'reset';
  /** Paths requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

const article = `<!doctype html><html lang="en"><head><title>Release notes</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a> | <a href="/login">Login</a></nav>
<article><h1>Release notes for version 2</h1>
${Array.from({ length: 40 }, (_, index) => `<p>Paragraph ${index}: the new release improves <strong>search speed</strong> and fixes bug ${index}. See <a href="/bugs/${index}">bug ${index}</a> and <a href="notes/${index}.html">notes</a>.</p>`).join('\n')}
</article>
<footer>Copyright footer text</footer>
<script>window.tracking = true;</script>
</body></html>`;

type Handler = (request: IncomingMessage, response: ServerResponse, site: LoopbackSite) => void;

const routes: Record<string, Handler> = {
  '/article': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(article);
  },
  '/huge-title': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const title = `<title>${'Release '.repeat(20_000)}</title>`;
    response.end(article.replace('<title>Release notes</title>', title).replace(/<\/?h1>/g, ''));
  },
  '/gzip-article': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    response.end(gzipSync(article));
  },
  '/plain': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('Just plain text.\nSecond line.');
  },
  '/data.json': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"answer":42,"items":["a","b"]}');
  },
  '/big': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('x'.repeat(3 * 1024 * 1024));
  },
  '/bomb': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    response.end(gzipSync(Buffer.alloc(8 * 1024 * 1024)));
  },
  '/image': (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' });
    response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
  },
  '/paper.pdf': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/pdf' });
    response.end('%PDF-1.4');
  },
  '/slow': () => {
    // never answers
  },
  '/tiny-page': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html><head><title>Tiny</title></head><body><h1>Tiny</h1><p>A <b>small</b> page.</p></body></html>');
  },
  // Flat by a tag count (every open has a close) but nested 3,000 deep in the DOM: a stray </b> closes nothing.
  '/tag-soup': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<html><head><title>Soup</title></head><body>${'<div></b>soup '.repeat(3000)}</body></html>`);
  },
  '/private/page': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('private page');
  },
  '/to-metadata': (_request, response) => {
    response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
    response.end();
  },
  '/to-mapped-metadata': (_request, response) => {
    response.writeHead(301, { location: 'http://[::ffff:a9fe:a9fe]/' });
    response.end();
  },
  '/to-file': (_request, response) => {
    response.writeHead(302, { location: 'file:///etc/passwd' });
    response.end();
  },
  '/robots.txt': (_request, response, site) => {
    if (site.robots === 'hang') return;
    if (site.robots === 'reset') {
      response.socket?.destroy();
      return;
    }
    response.writeHead(site.robots.status, { 'content-type': 'text/plain' });
    response.end(site.robots.body);
  },
};

/** Starts the site; /redirect/N redirects N times and then serves /plain. */
export async function startLoopbackSite(): Promise<LoopbackSite> {
  let site: LoopbackSite;
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    site.requests.push(path);
    const redirect = /^\/redirect\/(\d+)$/.exec(path);
    if (redirect) {
      const left = Number(redirect[1]);
      response.writeHead(302, { location: left > 1 ? `/redirect/${left - 1}` : '/plain' });
      response.end();
      return;
    }
    const route = routes[path];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    route(request, response, site);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  site = {
    origin: `http://127.0.0.1:${port}`,
    port,
    robots: { status: 404, body: '' },
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return site;
}
