import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServerConnection } from '../src/connection/server-connection.js';
import { connectHost } from '../src/host.js';
import { collectLog, fixturePath, fixtureServer, isAlive, textOf } from './helpers.js';

describe('connecting stdio servers', () => {
  it('starts every server at once, reports one that fails, and the others still work', async () => {
    const log = collectLog();
    await using host = await connectHost(
      {
        servers: [
          fixtureServer('alpha', 'echo-server.mjs'),
          fixtureServer('broken', 'crashing-server.mjs', { startupTimeoutMs: 10_000 }),
          fixtureServer('stuck', 'hanging-server.mjs', { startupTimeoutMs: 1500 }),
          fixtureServer('off', 'echo-server.mjs', { disabled: true }),
        ],
      },
      { log: log.sink },
    );
    expect(host.failures.map((failure) => failure.server).sort()).toEqual(['broken', 'stuck']);
    expect(host.failures.find((failure) => failure.server === 'stuck')?.message).toMatch(/initialize within 1500 ms/);
    expect(host.connections.map((connection) => connection.name)).toEqual(['alpha', 'broken', 'stuck']);
    expect(log.lines).toContain('[broken] fatal: cannot open database');
    expect(host.failures.find((failure) => failure.server === 'broken')?.message).toMatch(
      /the process exited with code 1 before answering initialize/,
    );
    expect(textOf(await host.callTool('alpha__echo', { text: 'hi' }))).toBe('alpha: hi');
    const refused = await host.call('stuck', 'echo', { text: 'hi' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Server "stuck" is not available/);
    // A name that is not a server lists only the servers a call could reach.
    await expect(host.call('nope', 'echo', {})).rejects.toThrow('There is no server "nope" (up: alpha).');
  });

  it('skips lines on stdout that are not JSON-RPC and says so on stderr', async () => {
    const log = collectLog();
    const server = fixtureServer('noisy', 'echo-server.mjs');
    if (server.transport.kind === 'stdio') server.transport.env = { FIXTURE_GARBAGE: '1' };
    await using host = await connectHost({ servers: [server] }, { log: log.sink });
    expect(host.failures).toEqual([]);
    expect(textOf(await host.callTool('noisy__echo', { text: 'still works' }))).toBe('noisy: still works');
    expect(log.lines.some((line) => line.includes('not JSON-RPC: Welcome to the echo server!'))).toBe(true);
  });

  it('passes stderr through with the server name and does not treat it as failure', async () => {
    const log = collectLog();
    await using host = await connectHost({ servers: [fixtureServer('talker', 'echo-server.mjs')] }, { log: log.sink });
    const result = await host.callTool('talker__say_stderr', { line: 'a warning' });
    expect(result.isError).toBeFalsy();
    await expect.poll(() => log.lines).toContain('[talker] a warning');
    expect(host.connection('talker')?.state).toBe('ready');
  });

  it('ends the whole process group on close, grandchildren included', async () => {
    const host = await connectHost({ servers: [fixtureServer('group', 'echo-server.mjs')] }, { log: () => {} });
    const serverPid = Number(textOf(await host.callTool('group__pid', {})));
    const grandchildPid = Number(textOf(await host.callTool('group__spawn_grandchild', {})));
    expect(isAlive(serverPid)).toBe(true);
    expect(isAlive(grandchildPid)).toBe(true);
    await host.close();
    await expect.poll(() => isAlive(serverPid) || isAlive(grandchildPid), { timeout: 10_000 }).toBe(false);
  });

  it('ends a server that was still starting when the connection closed, and stays closed', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcpkit-slow-start-'));
    const pidFile = join(directory, 'pid');
    const slow = fixtureServer('slow', 'echo-server.mjs', {
      transport: {
        kind: 'stdio',
        command: 'sh',
        args: [
          '-c',
          `echo $$ > ${pidFile}; sleep 1; exec "${process.execPath}" "${fixturePath('echo-server.mjs')}" slow`,
        ],
        env: {},
      },
    });
    const connection = new ServerConnection(slow, { log: () => {}, handlers: { roots: () => [] } });
    const starting = connection.start();
    await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '').toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await connection.close();
    await starting.catch(() => {});
    expect(connection.state).toBe('closed');
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
    expect(connection.state).toBe('closed');
  });

  it('owns its state: read-only from outside, and nothing listed once closed', async () => {
    const changes: string[] = [];
    const connection = new ServerConnection(fixtureServer('owner', 'echo-server.mjs'), {
      log: () => {},
      handlers: { roots: () => [] },
      onChange: (changed) => changes.push(`${changed.state}:${changed.tools.length}`),
    });
    await connection.start();
    expect(connection.tools.map((tool) => tool.name)).toContain('echo');
    expect(connection.prompts.length).toBeGreaterThan(0);
    expect(connection.resources.length).toBeGreaterThan(0);
    expect(connection.serverInfo?.name).toBe('owner');
    expect(changes).toEqual(['connecting:0', `ready:${connection.tools.length}`]);
    expect(() => {
      // @ts-expect-error the lists belong to the connection
      connection.tools = [];
    }).toThrow(TypeError);
    expect(() => {
      // @ts-expect-error the state changes only through the connection's own life
      connection.state = 'ready';
    }).toThrow(TypeError);
    expect(() => {
      // @ts-expect-error so does the error
      connection.error = undefined;
    }).toThrow(TypeError);
    expect(() => {
      // @ts-expect-error and the restart count
      connection.restarts = 0;
    }).toThrow(TypeError);
    await connection.close();
    expect(connection.state).toBe('closed');
    expect(connection.tools).toEqual([]);
    expect(connection.prompts).toEqual([]);
    expect(connection.resources).toEqual([]);
  });

  it('ends the process group of a server that dies on its own, grandchildren included', async () => {
    await using host = await connectHost(
      { servers: [fixtureServer('leaky', 'echo-server.mjs')] },
      { log: () => {}, restart: { initialDelayMs: 60_000 } },
    );
    const grandchildPid = Number(textOf(await host.callTool('leaky__spawn_grandchild', {})));
    expect(isAlive(grandchildPid)).toBe(true);
    await host.callTool('leaky__crash', {});
    await expect.poll(() => isAlive(grandchildPid), { timeout: 10_000 }).toBe(false);
  });

  it('answers a call in flight when the server dies, then restarts the server with backoff', async () => {
    const log = collectLog();
    await using host = await connectHost(
      { servers: [fixtureServer('fragile', 'echo-server.mjs')] },
      { log: log.sink, restart: { initialDelayMs: 300 } },
    );
    const firstPid = textOf(await host.callTool('fragile__pid', {}));
    const crashed = await host.callTool('fragile__crash', {});
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/stopped during the call to tool "crash"/);
    // While it restarts, its tools keep their names and calls say what is going on.
    expect(host.registry.resolve('fragile__echo')).toBeDefined();
    expect(textOf(await host.callTool('fragile__echo', { text: 'x' }))).toMatch(/crashed and is restarting/);
    const connection = host.connection('fragile');
    await expect.poll(() => connection?.state, { timeout: 20_000 }).toBe('ready');
    expect(connection?.restarts).toBe(1);
    expect(host.registry.resolve('fragile__echo')).toBeDefined();
    const secondPid = textOf(await host.callTool('fragile__pid', {}));
    expect(secondPid).not.toBe(firstPid);
  });

  it('gives up restarting after the configured attempts and reports the server failed', async () => {
    const log = collectLog();
    const server = fixtureServer('doomed', 'echo-server.mjs');
    const marker = join(mkdtempSync(join(tmpdir(), 'mcpkit-restart-')), 'started');
    if (server.transport.kind === 'stdio') server.transport.env = { FIXTURE_START_ONCE: marker };
    await using host = await connectHost(
      { servers: [server] },
      { log: log.sink, restart: { initialDelayMs: 50, maxAttempts: 2 } },
    );
    await host.callTool('doomed__crash', {});
    const connection = host.connection('doomed');
    await expect.poll(() => connection?.state, { timeout: 20_000 }).toBe('failed');
    expect(connection?.error).toBe('the server stopped and did not come back after 2 restarts');
    // The connection itself lists nothing once failed, prompts and resources included.
    expect(connection?.tools).toEqual([]);
    expect(connection?.prompts).toEqual([]);
    expect(connection?.resources).toEqual([]);
    expect(log.lines.filter((line) => line.startsWith('[doomed] restart failed'))).toHaveLength(2);
    expect(host.registry.resolve('doomed__echo')).toBeUndefined();
    expect(textOf(await host.call('doomed', 'echo', { text: 'x' }))).toMatch(/did not come back after 2 restarts/);
  });

  it('ends a call that takes too long with an error result and tells the server to stop', async () => {
    await using host = await connectHost(
      { servers: [fixtureServer('lazy', 'echo-server.mjs', { callTimeoutMs: 300 })] },
      { log: () => {} },
    );
    const started = Date.now();
    const result = await host.callTool('lazy__slow', { ms: 20_000 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/did not answer within 300 ms/);
    await expect.poll(async () => textOf(await host.callTool('lazy__cancelled_count', {}))).toBe('1');
  });

  it('keeps a call that reports progress alive past its timeout, and ends it at the total limit', async () => {
    await using host = await connectHost(
      { servers: [fixtureServer('busy', 'echo-server.mjs', { callTimeoutMs: 1500 })] },
      { log: () => {} },
    );
    const seen: unknown[] = [];
    const progressing = await host.call(
      'busy',
      'count_slowly',
      { steps: 6, intervalMs: 400 },
      { onProgress: (progress) => seen.push(progress) },
    );
    // 2.4 s in all against a 1.5 s timeout, with 1.1 s to spare between two reports on a loaded machine.
    expect(textOf(progressing)).toBe('done after 6 steps');
    // The SDK handles notifications a tick after responses, so the last one, sent just before the result, may be
    // dropped as late.
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(seen[0]).toEqual({ progress: 1, total: 6, message: 'step 1' });
    // Progress every 200 ms keeps resetting the 1.5 s timeout, but not past the total limit; the server is told.
    const endless = await host.call(
      'busy',
      'count_slowly',
      { steps: 100, intervalMs: 200 },
      { maxTotalTimeoutMs: 2500 },
    );
    expect(textOf(endless)).toBe(
      'Tool "count_slowly" of server "busy" did not finish within 2500 ms in all, though it reported progress.',
    );
    await expect.poll(async () => textOf(await host.call('busy', 'cancelled_count', {}))).toBe('1');
  });

  it('cancels a call when its signal aborts and sends notifications/cancelled', async () => {
    await using host = await connectHost({ servers: [fixtureServer('patient', 'echo-server.mjs')] }, { log: () => {} });
    const controller = new AbortController();
    const pending = host.callTool('patient__slow', { ms: 20_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cancelled/);
    await expect.poll(async () => textOf(await host.callTool('patient__cancelled_count', {}))).toBe('1');
  });

  it('refreshes the registry when a server says its tool list changed', async () => {
    await using host = await connectHost({ servers: [fixtureServer('growing', 'echo-server.mjs')] }, { log: () => {} });
    expect(host.registry.resolve('growing__fresh')).toBeUndefined();
    await host.callTool('growing__add_tool', { tool: 'fresh' });
    await expect.poll(() => host.registry.resolve('growing__fresh')?.tool).toBe('fresh');
    expect(textOf(await host.callTool('growing__fresh', {}))).toBe('added');
  });

  it('keeps colliding tool names apart by server and honours allow and deny lists', async () => {
    await using host = await connectHost(
      {
        servers: [
          fixtureServer('one', 'echo-server.mjs', { tools: { allow: ['echo', 'p*'] } }),
          fixtureServer('two', 'echo-server.mjs', { tools: { deny: ['crash', 'spawn_*'] } }),
        ],
      },
      { log: () => {} },
    );
    const names = host.registry.list().map((entry) => entry.modelName);
    expect(names.filter((name) => name.startsWith('one__')).sort()).toEqual(['one__echo', 'one__picture', 'one__pid']);
    expect(names).toContain('two__echo');
    expect(names).not.toContain('two__crash');
    expect(names).not.toContain('two__spawn_grandchild');
    expect(textOf(await host.callTool('one__echo', { text: 'x' }))).toBe('one: x');
    expect(textOf(await host.callTool('two__echo', { text: 'x' }))).toBe('two: x');
    const denied = await host.call('two', 'crash', {});
    expect(textOf(denied)).toMatch(/not allowed by the host's config/);
  });

  it('says a server needs the tasks extension when it wants task-based execution', async () => {
    await using host = await connectHost({ servers: [fixtureServer('jobs', 'tasks-server.mjs')] }, { log: () => {} });
    // The server refuses the plain call, and the SDK refuses to send one for a tool whose listing requires a task.
    for (const tool of ['long_job', 'required_job']) {
      const result = await host.call('jobs', tool, {});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        `Tool "${tool}" of server "jobs" needs the tasks extension, which mcpkit-host does not support yet.`,
      );
    }
  });

  it('offers roots and declines elicitation when no one can answer', async () => {
    await using host = await connectHost(
      { servers: [fixtureServer('curious', 'echo-server.mjs')] },
      { log: () => {}, roots: ['/tmp'] },
    );
    expect(textOf(await host.callTool('curious__list_roots', {}))).toBe('["file:///tmp"]');
    expect(textOf(await host.callTool('curious__ask_user', {}))).toBe('user chose decline');
  });
});
