#!/usr/bin/env node
// A throwaway round-robin reverse proxy in front of several HTTP backends, for the scale-out test: nginx from
// Debian's packages (installed with apt-get when it is missing and we are root, like the PostgreSQL cluster script),
// run in the foreground as our child with its own config, pid, logs and temp folders in a temp directory. Only when
// nginx cannot be had (not installed and not root) does a tiny node:http round-robin proxy stand in. Both name the
// backend that served each request in an X-Upstream-Address response header (host:port).
//   node scripts/tools/nginx-proxy.mjs 127.0.0.1:3001 127.0.0.1:3002   proxies to both, prints its URL, stops on Ctrl-C
//   MCPKIT_PROXY=node ...                                                uses the node:http stand-in even with nginx
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';

const nginxBinaries = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];

function findNginx() {
  return nginxBinaries.find((file) => existsSync(file));
}

/** Installs Debian's nginx non-interactively; `apt-get update` only when the install fails without it. */
function install() {
  const run = (args) =>
    spawnSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status;
  const installArgs = ['install', '-y', '--no-install-recommends', 'nginx'];
  if (run(installArgs) === 0) return;
  if (run(['update']) !== 0) throw new Error('apt-get update failed while installing nginx.');
  if (run(installArgs) !== 0) throw new Error('apt-get install nginx failed.');
}

/** The nginx binary, installed first when it is missing and we are root; undefined when it cannot be had. */
export function ensureNginx() {
  const found = findNginx();
  if (found || process.getuid?.() !== 0) return found;
  install();
  const installed = findNginx();
  if (!installed) throw new Error('nginx was installed but its binary was not found.');
  return installed;
}

/** Reads `host:port` or an http URL into `host:port`. */
function backendAddress(backend) {
  if (!backend.includes('://')) return backend;
  const url = new URL(backend);
  return `${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${url.port || 80}`;
}

function configuration(directory, port, backends) {
  const servers = backends.map((backend) => `    server ${backendAddress(backend)};`).join('\n');
  // As root the workers run as this user too: the temp folders are ours, and nothing is served from disk.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  return `${user}worker_processes 1;
pid ${join(directory, 'nginx.pid')};
error_log ${join(directory, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${join(directory, 'client-body')};
  proxy_temp_path ${join(directory, 'proxy')};
  fastcgi_temp_path ${join(directory, 'fastcgi')};
  uwsgi_temp_path ${join(directory, 'uwsgi')};
  scgi_temp_path ${join(directory, 'scgi')};
  # Round robin (the default), and no keepalive to the backends: no connection pins a client to one instance.
  upstream backends {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://backends;
      proxy_http_version 1.1;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 60s;
      proxy_set_header Host $http_host;
      # Which backend served the request, for tests that check where each request went.
      add_header X-Upstream-Address $upstream_addr always;
      client_max_body_size 16m;
    }
  }
}
`;
}

/**
 * Resolves true once nginx has written its pid file (it does so after binding its port, so the port is its own and
 * not a stranger's that took it first) and accepts connections; false when nginx exits first or time runs out.
 */
async function waitForStart(pidFile, port, exited, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let done = false;
  exited.then(() => {
    done = true;
  });
  while (!done && Date.now() < deadline) {
    const open = await new Promise((resolve) => {
      if (!existsSync(pidFile)) return resolve(false);
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open && !done) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

async function startNginx(binary, backends) {
  for (let attempt = 1; ; attempt++) {
    const directory = mkdtempSync(join(tmpdir(), 'mcpkit-nginx-'));
    for (const name of ['client-body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(directory, name));
    const port = await freePort();
    const file = join(directory, 'nginx.conf');
    writeFileSync(file, configuration(directory, port, backends));
    const child = spawn(
      binary,
      ['-p', directory, '-e', join(directory, 'error.log'), '-c', file, '-g', 'daemon off;'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.once('error', () => {});
    const close = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(directory, { recursive: true, force: true });
    };
    if (await waitForStart(join(directory, 'nginx.pid'), port, exited, 10_000)) {
      return { url: `http://127.0.0.1:${port}`, kind: 'nginx', close };
    }
    const log = existsSync(join(directory, 'error.log')) ? readFileSync(join(directory, 'error.log'), 'utf8') : '';
    await close();
    // Another process took the port between our probe and nginx's bind: try another one.
    if (/in use/i.test(stderr + log) && attempt < 5) continue;
    throw new Error(`nginx did not start: ${(stderr + log).trim() || 'no output'}`);
  }
}

/** The fallback: a node:http round-robin proxy, one new backend connection per request (no keepalive). */
async function startNodeProxy(backends) {
  const addresses = backends.map((backend) => new URL(`http://${backendAddress(backend)}`));
  let next = 0;
  const server = createHttpServer((request, response) => {
    const target = addresses[next++ % addresses.length];
    const upstream = httpRequest(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent: false,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, {
          ...answer.headers,
          'x-upstream-address': `${target.hostname}:${target.port}`,
        });
        answer.pipe(response);
      },
    );
    upstream.once('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    response.once('close', () => upstream.destroy());
    request.pipe(upstream);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${server.address().port}`, kind: 'node', close };
}

/** Which proxy startReverseProxy will run: nginx if it can be had, else node (MCPKIT_PROXY=node forces node). */
export function reverseProxyKind() {
  return process.env.MCPKIT_PROXY !== 'node' && ensureNginx() ? 'nginx' : 'node';
}

/**
 * Starts a round-robin reverse proxy in front of `backends` (`host:port` or http URLs): nginx when it is installed
 * or can be installed, else a node:http stand-in. Resolves with its base URL, which of the two it is, and close().
 */
export async function startReverseProxy(backends) {
  if (backends.length === 0) throw new Error('A reverse proxy needs at least one backend.');
  return reverseProxyKind() === 'nginx' ? startNginx(ensureNginx(), backends) : startNodeProxy(backends);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const proxy = await startReverseProxy(process.argv.slice(2));
  process.stdout.write(`${proxy.kind} at ${proxy.url}\n`);
  const stop = () => proxy.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
