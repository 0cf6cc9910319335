import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectHost } from '../src/host.js';
import { collectLog, fixturePath, fixtureServer, textOf } from './helpers.js';

// Version negotiation on stdio: modern first (server/discover), the 2025-11-25 handshake for a server that refuses
// the probe, ignores it, or even exits on it.
function legacyServer(name: string, onEarlyRequest: 'error' | 'silent' | 'exit', startsFile?: string) {
  return fixtureServer(name, 'legacy-raw-server.mjs', {
    transport: {
      kind: 'stdio',
      command: process.execPath,
      args: [fixturePath('legacy-raw-server.mjs'), onEarlyRequest, ...(startsFile ? [startsFile] : [])],
      env: {},
    },
    // Node's own start is inside this limit, three times slower on a loaded machine.
    startupTimeoutMs: 3000,
  });
}

describe('protocol eras on stdio', () => {
  it('speaks the modern era to a kit server and the 2025-11-25 handshake to one that refuses or ignores the probe', async () => {
    const log = collectLog();
    await using host = await connectHost(
      {
        servers: [
          fixtureServer('modern', 'echo-server.mjs'),
          legacyServer('refuses', 'error'),
          legacyServer('ignores', 'silent'),
        ],
      },
      { log: log.sink },
    );
    expect(host.failures).toEqual([]);
    const protocols = Object.fromEntries(host.connections.map((connection) => [connection.name, connection.protocol]));
    expect(protocols).toEqual({
      modern: { era: 'modern', version: '2026-07-28', transport: 'stdio' },
      refuses: { era: 'legacy', version: '2025-11-25', transport: 'stdio' },
      ignores: { era: 'legacy', version: '2025-11-25', transport: 'stdio' },
    });
    expect(textOf(await host.call('ignores', 'echo', { text: 'hi' }))).toBe('legacy: hi');
    expect(textOf(await host.call('modern', 'echo', { text: 'hi' }))).toContain('hi');
    expect(log.lines).toContain('[refuses] connected: protocol 2025-11-25 (legacy) over stdio');
  });

  it("delivers a call's last progress when the server writes it in one chunk with the result", async () => {
    await using host = await connectHost({ servers: [legacyServer('chunky', 'error')] });
    for (let attempt = 0; attempt < 20; attempt++) {
      const progress: number[] = [];
      const result = await host.call(
        'chunky',
        'progress_then_result',
        {},
        {
          onProgress: (update) => progress.push(update.progress),
        },
      );
      expect(textOf(result)).toBe('done');
      expect(progress).toEqual([1]);
    }
  });

  it('starts a server that exits on the probe again, straight into the 2025-11-25 handshake', async () => {
    const starts = join(mkdtempSync(join(tmpdir(), 'mcpkit-eras-')), 'starts');
    const log = collectLog();
    await using host = await connectHost(
      { servers: [legacyServer('strict', 'exit', starts)] },
      { log: log.sink, restart: { initialDelayMs: 50 } },
    );
    expect(host.failures).toEqual([]);
    expect(host.connection('strict')?.protocol?.era).toBe('legacy');
    expect(textOf(await host.call('strict', 'echo', { text: 'again' }))).toBe('legacy: again');
    expect(readFileSync(starts, 'utf8')).toBe('start\nstart\n');
    expect(log.lines.some((line) => line.includes('exited on the server/discover probe'))).toBe(true);

    // A restart goes straight to the handshake: one start, no second probe.
    await host.call('strict', 'crash', {});
    await expect.poll(() => host.connection('strict')?.restarts, { timeout: 10_000 }).toBe(1);
    expect(readFileSync(starts, 'utf8')).toBe('start\nstart\nstart\n');
    expect(textOf(await host.call('strict', 'echo', { text: 'after' }))).toBe('legacy: after');
  });

  it('does not count the time a person takes to answer a form as the silence of a call, in the modern era', async () => {
    await using host = await connectHost(
      { servers: [fixtureServer('modern', 'echo-server.mjs', { callTimeoutMs: 1500 })] },
      {
        log: () => {},
        elicit: async () => {
          await new Promise((resolve) => setTimeout(resolve, 3000));
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    );
    expect(host.connection('modern')?.protocol?.era).toBe('modern');
    expect(textOf(await host.call('modern', 'ask_user', {}))).toBe('hello Ada');
    // A silent call still ends at the timeout.
    expect(textOf(await host.call('modern', 'slow', { ms: 5000 }))).toMatch(/did not answer within 1500 ms/);
  });
});
