import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess } from './helpers.js';

const bin = fileURLToPath(new URL('../bin/mcpkit-host.js', import.meta.url));
const checkout = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs `mcpkit-host` with a throwaway home and working directory. */
function install(args: string[]) {
  const home = mkdtempSync(join(tmpdir(), 'mcpkit-install-home-'));
  const run = runProcess(process.execPath, [bin, 'install', ...args], {
    cwd: home,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
  });
  return { home, run };
}

describe('mcpkit-host install', () => {
  it('prints the entry that starts a server of this checkout, with the arguments after --', async () => {
    const { run } = install(['cursor', 'filesystem', '--', '--read-only', '/srv/notes']);
    const result = await run;
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      mcpServers: {
        'mcpkit-filesystem': {
          command: process.execPath,
          args: [join(checkout, 'servers/filesystem/bin/mcpkit-filesystem.js'), '--read-only', '/srv/notes'],
        },
      },
    });
    expect(result.stderr).toContain('.cursor/mcp.json');
  });

  it('merges into the client config with --write, keeping the old file as a backup', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mcpkit-install-home-'));
    mkdirSync(join(home, '.vscode'));
    writeFileSync(join(home, '.vscode', 'mcp.json'), JSON.stringify({ servers: { mine: { type: 'http', url: 'x' } } }));
    const result = await runProcess(
      process.execPath,
      [bin, 'install', 'vscode', 'database', '--name', 'shop', '--write', '--', '/srv/shop.sqlite'],
      { cwd: home, env: { ...process.env, HOME: home } },
    );
    expect(result.code, result.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(home, '.vscode', 'mcp.json'), 'utf8'));
    expect(Object.keys(config.servers)).toEqual(['mine', 'shop']);
    expect(config.servers.shop).toMatchObject({ type: 'stdio', command: process.execPath });
    expect(readdirSync(join(home, '.vscode')).some((name) => name.startsWith('mcp.json.backup-'))).toBe(true);
  });

  it('answers an unknown client or server with a usage error (exit 2)', async () => {
    const client = await install(['emacs', 'filesystem']).run;
    expect(client.code).toBe(2);
    expect(client.stderr).toContain('claude, cursor, vscode');
    const server = await install(['claude', 'mail']).run;
    expect(server.code).toBe(2);
    expect(server.stderr).toContain('database, filesystem, search');
  });
});
