import { describe, expect, it } from 'vitest';
import { startFixture } from './support/child-process.js';

describe('runServerCommand in a real process', () => {
  it('exits 2 with one clear line on an unknown flag', async () => {
    const child = startFixture(['--bogus']);
    expect(await child.exited).toBe(2);
    expect(child.stderr()).toMatch(
      /^fixture-server: Unknown option '--bogus'.*\nRun fixture-server --help for usage\.\n$/s,
    );
    expect(child.stdout()).toBe('');
  });

  it('exits 2 on a bad --http value and a bad --log-level', async () => {
    for (const args of [
      ['--http', 'not-a-port'],
      ['--log-level', 'loud'],
    ]) {
      const child = startFixture(args);
      expect(await child.exited).toBe(2);
      expect(child.stderr()).toContain(args[0]);
    }
  });

  it('prints the help and the version to stdout and exits 0', async () => {
    const help = startFixture(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.stdout()).toContain('Usage: fixture-server [serve] [options]');
    expect(help.stdout()).toContain('--fail');
    expect(help.stderr()).toBe('');
    const version = startFixture(['--version']);
    expect(await version.exited).toBe(0);
    expect(version.stdout()).toBe('9.9.9\n');
    const subcommandHelp = startFixture(['count', '--help']);
    expect(await subcommandHelp.exited).toBe(0);
    expect(subcommandHelp.stdout()).toContain('Usage: fixture-server count [options] WORD...');
  });

  it('runs a subcommand and exits 0, 2 on its usage errors and 1 when it fails', async () => {
    const counted = startFixture(['count', 'a', 'b', 'c']);
    expect(await counted.exited).toBe(0);
    expect(counted.stderr()).toBe('fixture: 3 words\n');
    const bad = startFixture(['count', '--most', 'two', 'a']);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toBe(
      'fixture-server: --most takes a positive integer; got "two".\nRun fixture-server --help for usage.\n',
    );
    const failed = startFixture(['count', '--most', '1', 'a', 'b']);
    expect(await failed.exited).toBe(1);
    expect(failed.stderr()).toBe('fixture-server: 2 words are more than 1\n');
  });

  it('exits 1 with one line when the server cannot start (a port in use)', async () => {
    const first = startFixture(['--http', '127.0.0.1:0']);
    await expect.poll(() => first.stderr()).toMatch(/Serving Streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const port = /127\.0\.0\.1:(\d+)\/mcp/.exec(first.stderr())?.[1] as string;
    const second = startFixture(['--http', `127.0.0.1:${port}`]);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(/^fixture-server: listen EADDRINUSE.*\n$/);
    first.process.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  it('exits 1 with the message when building the server fails', async () => {
    const child = startFixture(['--fail']);
    expect(await child.exited).toBe(1);
    expect(child.stderr()).toContain('fixture-server: the fixture was told to fail');
  });

  it('serves Streamable HTTP on --http, and closes on SIGTERM after onClose', async () => {
    const child = startFixture(['--http', '127.0.0.1:0']);
    await expect.poll(() => child.stderr()).toMatch(/Serving Streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const url = /Serving Streamable HTTP at (\S+)/.exec(child.stderr())?.[1] as string;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    await response.body?.cancel();
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    expect(child.stderr()).toContain('fixture: onClose ran');
  });
  it('serves Streamable HTTP on after the reader of its stderr went away, and still closes cleanly on SIGTERM', async () => {
    const child = startFixture(['--http', '127.0.0.1:0']);
    await expect.poll(() => child.stderr()).toMatch(/Serving Streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const url = /Serving Streamable HTTP at (\S+)/.exec(child.stderr())?.[1] as string;
    // From now on every log line fails with EPIPE, the shutdown's included.
    child.process.stderr.destroy();
    const post = (body: object, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
      });
    const opened = await post({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const session = opened.headers.get('mcp-session-id') as string;
    await opened.body?.cancel();
    await (await post({ method: 'notifications/initialized' }, session)).body?.cancel();
    for (const id of [2, 3]) {
      const answered = await post({ id, method: 'tools/call', params: { name: 'noisy', arguments: {} } }, session);
      expect(await answered.text()).toContain('still only JSON-RPC on stdout');
    }
    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
  });
});
