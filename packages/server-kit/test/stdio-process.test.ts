import { beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../src/create-server.js';
import { defineTool } from '../src/define-tool.js';
import { resultText, spawnTestClient, transportsUnderTest } from '../src/testing/index.js';
import { fixtureServer, initialize, startFixture } from './support/child-process.js';
import { expectFreshBundle } from './support/fresh-bundle.js';

// This file runs the bundle in dist/: it fails at once, saying so, on a bundle older than the kit's files.
beforeAll(expectFreshBundle);

describe('serveStdio in a real child process', () => {
  it('writes nothing but JSON-RPC to stdout, even when dependencies use the console', async () => {
    const child = startFixture();
    await initialize(child);
    child.send({ id: 1, method: 'tools/call', params: { name: 'noisy', arguments: {} } });
    const response = await child.response(1);
    expect(response.result).toEqual({ content: [{ type: 'text', text: 'still only JSON-RPC on stdout' }] });
    for (const line of child.stdout().split('\n').filter(Boolean)) {
      expect(JSON.parse(line), line).toMatchObject({ jsonrpc: '2.0' });
    }
    for (const written of [
      'console.log while the server is built',
      'console.log from a dependency',
      'console.info from a dependency',
      "{ an: 'object' }",
      'calls: 1',
      'deep',
    ]) {
      expect(child.stderr()).toContain(written);
    }
    child.process.stdin.end();
    expect(await child.exited).toBe(0);
  });

  it('goes on answering after the reader of its stderr went away (its log lines have nowhere to go)', async () => {
    const child = startFixture();
    await initialize(child);
    // The host closed its end of the server's stderr: every log line from now on fails with EPIPE.
    child.process.stderr.destroy();
    for (const id of [1, 2, 3]) {
      child.send({ id, method: 'tools/call', params: { name: 'noisy', arguments: {} } });
      expect((await child.response(id)).result).toEqual({
        content: [{ type: 'text', text: 'still only JSON-RPC on stdout' }],
      });
    }
    child.process.stdin.end();
    expect(await child.exited).toBe(0);
  });

  it('answers a line that is not JSON with -32700, a batch and a non-JSON-RPC request with -32600, and goes on', async () => {
    const child = startFixture();
    const errors = () =>
      child
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { id?: unknown; error?: { code: number; message: string } })
        .filter((line) => line.error !== undefined);
    child.process.stdin.write('this is not json\n');
    await expect.poll(() => errors().length).toBe(1);
    expect(errors()[0]).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not JSON.' },
    });
    child.process.stdin.write('[{"jsonrpc":"2.0","id":5,"method":"ping"}]\n');
    child.process.stdin.write('{"jsonrpc":"1.0","id":6,"method":"ping"}\n');
    await expect.poll(() => errors().length).toBe(3);
    expect(errors()[1]).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringContaining('Batches') },
    });
    expect(errors()[2]).toMatchObject({ id: 6, error: { code: -32600 } });
    await initialize(child);
    child.send({ id: 1, method: 'ping' });
    expect((await child.response(1)).result).toEqual({});
    expect(child.stderr()).toContain('MCP connection error (the connection goes on): Answered a line that is not JSON');
    for (const line of child.stdout().split('\n').filter(Boolean)) {
      expect(JSON.parse(line), line).toMatchObject({ jsonrpc: '2.0' });
    }
    child.process.stdin.end();
    expect(await child.exited).toBe(0);
  });

  it('answers a 12 MiB message with a JSON-RPC error and keeps the session', async () => {
    const child = startFixture();
    await initialize(child);
    // The SDK's client writes the id last; the line is far over the 10 MiB limit and is never buffered whole.
    const padding = 'x'.repeat(12 * 1024 * 1024);
    child.process.stdin.write(
      `{"method":"tools/call","params":{"name":"noisy","arguments":{"padding":"${padding}"}},"jsonrpc":"2.0","id":7}\n`,
    );
    const refused = await child.response(7);
    expect(refused.error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('over the limit of 10,485,760 bytes'),
    });
    child.send({ id: 8, method: 'tools/call', params: { name: 'noisy', arguments: {} } });
    expect((await child.response(8)).result).toEqual({
      content: [{ type: 'text', text: 'still only JSON-RPC on stdout' }],
    });
    expect(child.stderr()).toContain('(the connection goes on): Refused a message of 12,583,0');
    child.process.stdin.end();
    expect(await child.exited).toBe(0);
  });

  it('exits cleanly when stdin closes, after running onClose', async () => {
    const child = startFixture();
    await initialize(child);
    child.process.stdin.end();
    expect(await child.exited).toBe(0);
    expect(child.stderr()).toContain('fixture: onClose ran');
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`on ${signal}, aborts the handlers in flight, runs onClose and exits 0`, async () => {
      const child = startFixture();
      await initialize(child);
      child.send({ id: 1, method: 'tools/call', params: { name: 'wait_for_abort', arguments: {} } });
      await expect.poll(() => child.stderr()).toContain('fixture: handler started');
      child.process.kill(signal);
      expect(await child.exited).toBe(0);
      const stderr = child.stderr();
      expect(stderr).toContain('fixture: handler aborted');
      expect(stderr.indexOf('fixture: handler aborted')).toBeLessThan(stderr.indexOf('fixture: onClose ran'));
    });
  }

  it('serves the test client over real stdio, with the server log on stderr', async () => {
    await using client = await spawnTestClient({ command: process.execPath, args: [fixtureServer] });
    const { tools } = await client.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['noisy', 'wait_for_abort', 'ask_name']);
    expect(resultText(await client.callTool('noisy'))).toBe('still only JSON-RPC on stdout');
    expect(client.pid).toBeGreaterThan(0);
    await expect.poll(() => client.stderr()).toContain('console.log from a dependency');
  });
});

describe.each(
  transportsUnderTest({
    create: () =>
      createServer({
        name: 'fixture',
        version: '9.9.9',
        tools: [
          defineTool({ name: 'noisy', description: 'In memory.', handler: () => 'still only JSON-RPC on stdout' }),
        ],
      }),
    spawn: { command: process.execPath, args: [fixtureServer] },
  }),
)('transportsUnderTest: $name', ({ name, connect }) => {
  it('connects a fresh client that runs the same test', async () => {
    await using client = await connect();
    expect(await client.callToolText('noisy')).toBe('still only JSON-RPC on stdout');
    expect('pid' in client).toBe(name === 'stdio');
  });
});
