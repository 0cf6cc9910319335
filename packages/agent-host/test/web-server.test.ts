import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, workspace } from './cli-helpers.js';
import { startWebHost, type WebHost, webFixtureConfig } from './web-helpers.js';

/** One HTTP request with chosen headers (fetch would not let a test set Host). */
function send(
  port: number,
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    address?: string;
    untilMs?: number;
    /** With `untilMs`: stop reading as soon as the body contains this. */
    untilText?: string;
  } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: options.address ?? '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        let body = '';
        const done = () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        // An event stream never ends: read it until a text comes or for a while.
        const stop = () => {
          clearTimeout(timer);
          response.destroy();
          done();
        };
        const timer = options.untilMs ? setTimeout(stop, options.untilMs) : undefined;
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
          if (options.untilText && body.includes(options.untilText)) stop();
        });
        response.on('end', done);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

const script = {
  steps: [{ toolCalls: [{ name: 'demo__weather', arguments: { city: 'Rome' } }] }, { text: '{{tool_results}}' }],
};

describe('mcpkit-host web over HTTP', () => {
  const hosts: WebHost[] = [];
  afterAll(() => Promise.all(hosts.map((host) => host.close())));

  it('serves only with the token, only to its own Host and Origin, on loopback, under a strict CSP', async () => {
    const secret = 'sk-http-secret-777';
    const host = await startWebHost(script, { secret });
    hosts.push(host);
    const { port, token } = host;
    const page = await send(port, `/?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await send(port, '/')).status).toBe(401);
    expect((await send(port, `/?token=${token.slice(1)}x`)).status).toBe(401);
    expect((await send(port, `/events?token=wrong`)).status).toBe(401);
    // A page of another site that rebinds its name to 127.0.0.1 comes with its own Host.
    expect((await send(port, `/?token=${token}`, { headers: { host: `evil.example:${port}` } })).status).toBe(421);
    expect((await send(port, `/?token=${token}`, { headers: { host: 'localhost:1' } })).status).toBe(421);
    const post = (headers: Record<string, string>) =>
      send(port, '/api/message', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ text: 'Weather in Rome?' }),
      });
    expect((await post({ origin: 'http://evil.example', 'x-mcpkit-token': token })).status).toBe(403);
    expect((await post({ origin: `http://127.0.0.1:${port}` })).status).toBe(401);
    expect((await post({ origin: `http://127.0.0.1:${port}`, 'x-mcpkit-token': token })).status).toBe(202);
    // The page's code needs no token (it is the same for everyone), but still its own Host.
    expect((await send(port, '/assets/main.js')).status).toBe(200);
    expect((await send(port, '/assets/..%2fweb-server.js')).status).toBe(404);
    expect((await send(port, '/assets/../web-server.js')).status).toBe(401);
    // The stream replays the run; nothing of the config beyond server names reaches it. Read to the run's answer
    // (a fixed 1.5 s could end before a loaded machine had run the tool), or 15 s.
    const events = await send(port, `/events?token=${token}`, { untilMs: 15_000, untilText: '"type":"answer"' });
    expect(events.body).toContain('"type":"answer"');
    expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(events.body).toContain('Sunny in Rome');
    expect(events.body).not.toContain(secret);
    expect(events.body).not.toContain('web-server.mjs');
    // Other interfaces are not served.
    const other = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && entry.family === 'IPv4' && !entry.internal);
    if (other) await expect(send(port, `/?token=${token}`, { address: other.address })).rejects.toThrow();
  });

  it('serves other interfaces only with --listen, and warns', async () => {
    const host = await startWebHost(script, { args: ['--listen', '0.0.0.0'] });
    hosts.push(host);
    expect(host.stderr()).toContain('warning: serving on 0.0.0.0');
    expect((await send(host.port, `/?token=${host.token}`)).status).toBe(200);
  });

  it('answers a body of the wrong shape with a 400 and a sentence, and goes on serving', async () => {
    const host = await startWebHost(script);
    hosts.push(host);
    const post = async (path: string, body: unknown) => {
      const answer = await send(host.port, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mcpkit-token': host.token },
        body: JSON.stringify(body),
      });
      return { status: answer.status, error: (JSON.parse(answer.body) as { error?: string }).error };
    };
    expect(await post('/api/attach', null)).toEqual({ status: 400, error: 'Attach needs a JSON object.' });
    expect(await post('/api/attach', ['demo://a'])).toEqual({ status: 400, error: 'Attach needs a JSON object.' });
    expect(await post('/api/attach', { uri: 7 })).toEqual({ status: 400, error: "Attach's uri must be a string." });
    expect(await post('/api/attach', { template: 'demo://{city}', values: { city: { toString: 'x' } } })).toEqual({
      status: 400,
      error: "Attach's values must be an object of strings.",
    });
    expect(await post('/api/attach', { template: 'demo://{city}', values: {} })).toEqual({
      status: 400,
      error: 'The template demo://{city} needs city.',
    });
    expect(await post('/api/prompt', { server: 'demo', name: 'p', arguments: 'abc' })).toEqual({
      status: 400,
      error: "A prompt's arguments must be an object of strings.",
    });
    expect((await send(host.port, `/?token=${host.token}`)).status).toBe(200);
  });

  it('reports a bad --port as a usage error', async () => {
    const cwd = workspace(webFixtureConfig('unused'));
    const result = await cli(['web', '--port', 'eighty'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port takes a port number; got "eighty".');
  });
});
