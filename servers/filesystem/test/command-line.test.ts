import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
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
  it('prints help with the flags and exits 0', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('--read-only');
    expect(result.stderr).toContain('--refuse-hard-links');
    expect(result.stdout).toBe('');
  });

  it('exits 2 on a bad flag or a bad limit', () => {
    expect(run('--bogus', directory).status).toBe(2);
    const badLimit = run('--read-budget', 'lots', directory);
    expect(badLimit.status).toBe(2);
    expect(badLimit.stderr).toContain('--read-budget takes a positive integer');
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
});
