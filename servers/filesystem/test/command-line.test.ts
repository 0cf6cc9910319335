import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/mcpkit-filesystem.js', import.meta.url));
const directory = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-fs-cli-')));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('mcpkit-filesystem command line', () => {
  it('prints help with the flags to stdout and exits 0', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('--read-only');
    expect(result.stdout).toContain('--refuse-hard-links');
    expect(result.stdout).toContain('--read-budget CHARS');
    expect(result.stderr).toBe('');
  });

  it('exits 2 on a bad flag or a bad limit, with the reason on stderr', () => {
    const bogus = run('--bogus', directory);
    expect(bogus.status).toBe(2);
    expect(bogus.stdout).toBe('');
    expect(bogus.stderr).toContain("Unknown option '--bogus'");
    for (const value of ['lots', '0', '2.5']) {
      const badLimit = run('--read-budget', value, directory);
      expect(badLimit.status).toBe(2);
      expect(badLimit.stderr).toContain('--read-budget takes a positive integer');
    }
  });

  it('applies a limit flag, and tells clients its title and the package version', async () => {
    await using client = await spawnTestClient({
      command: process.execPath,
      args: [bin, '--read-budget', '50', directory],
    });
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(client.client.getServerVersion()).toMatchObject({ name: 'mcpkit-filesystem', title: 'Filesystem', version });
    writeFileSync(join(directory, 'long.txt'), 'word '.repeat(100));
    expect(await client.callToolText('read_text_file', { path: join(directory, 'long.txt') })).toMatch(
      /^(word ){1,10}[\s\S]*truncated/,
    );
  });

  it('exits 1 when no allowed directory can be used', () => {
    const result = run(join(directory, 'missing'));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('None of the allowed directories can be used');
  });

  it('skips a missing directory with a warning and serves the others', async () => {
    await using client = await spawnTestClient({
      command: process.execPath,
      args: [bin, join(directory, 'missing'), directory],
    });
    expect(await client.callToolText('list_allowed_directories')).toBe(`Allowed directories:\n${directory}`);
    expect(client.stderr()).toContain('does not exist. It is left out.');
  });

  it('serves Streamable HTTP with --http, with the same tools', async () => {
    const child = spawn(process.execPath, [bin, '--http', '127.0.0.1:0', directory], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const found = /Serving Streamable HTTP at (\S+)/.exec(stderr)?.[1];
          if (found) resolve(found);
        });
        child.once('exit', () => reject(new Error(`exited: ${stderr}`)));
      });
      const post = async (body: unknown, session?: string) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
            ...(session ? { 'mcp-session-id': session } : {}),
          },
          body: JSON.stringify(body),
        });
        const text = await response.text();
        const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
        return { session: response.headers.get('mcp-session-id') ?? undefined, message: data ? JSON.parse(data) : {} };
      };
      const initialize = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      });
      expect(initialize.message.result.serverInfo.name).toBe('mcpkit-filesystem');
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, initialize.session);
      const listed = await post(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_allowed_directories', arguments: {} } },
        initialize.session,
      );
      expect(listed.message.result.content[0].text).toBe(`Allowed directories:\n${directory}`);
    } finally {
      child.kill();
    }
  });
});
