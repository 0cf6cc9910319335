import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJsonc } from '../config/parse-jsonc.js';
import { checkoutRoot, clientConfigPath, installEntry, mergeEntry, serverEntry, snippet } from './client-config.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'mcpkit-install-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('client config entries', () => {
  it('starts a server of this checkout with the absolute Node path, in each client format', () => {
    const claude = serverEntry('claude', 'filesystem', ['/home/me/notes'], checkoutRoot, '/usr/bin/node');
    expect(claude).toEqual({
      command: '/usr/bin/node',
      args: [join(checkoutRoot, 'servers/filesystem/bin/mcpkit-filesystem.js'), '/home/me/notes'],
    });
    expect(serverEntry('vscode', 'database', ['db.sqlite'], checkoutRoot, 'node')).toMatchObject({ type: 'stdio' });
    expect(JSON.parse(snippet('vscode', 'db', claude))).toHaveProperty('servers.db');
    expect(JSON.parse(snippet('cursor', 'db', claude))).toHaveProperty('mcpServers.db');
  });

  it('refuses when the server bin is not in the checkout', () => {
    expect(() => serverEntry('claude', 'search', [], directory)).toThrow(/does not exist/);
  });

  it('knows where each client keeps its config', () => {
    expect(clientConfigPath('cursor', '/work', '/home/me')).toBe('/home/me/.cursor/mcp.json');
    expect(clientConfigPath('vscode', '/work', '/home/me')).toBe('/work/.vscode/mcp.json');
    expect(clientConfigPath('claude', '/work', '/home/me')).toMatch(/claude_desktop_config\.json$/);
  });

  it('merges into an existing config, keeping other servers and keys, with a backup of the old file', async () => {
    const file = join(directory, 'claude_desktop_config.json');
    const before = { globalShortcut: 'Ctrl+Space', mcpServers: { other: { command: 'x', args: [] } } };
    writeFileSync(file, JSON.stringify(before));
    const outcome = await installEntry('claude', file, 'files', { command: 'node', args: ['a.js'] });
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after).toEqual({
      ...before,
      mcpServers: { ...before.mcpServers, files: { command: 'node', args: ['a.js'] } },
    });
    expect(outcome.replaced).toBe(false);
    expect(outcome.backup && JSON.parse(readFileSync(outcome.backup, 'utf8'))).toEqual(before);
    expect(readdirSync(directory).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });

  it('keeps the permissions of the file it replaces, and makes a new one private', async () => {
    const file = join(directory, 'claude_desktop_config.json');
    writeFileSync(file, '{}', { mode: 0o640 });
    chmodSync(file, 0o640);
    await installEntry('claude', file, 'files', { command: 'node', args: [] });
    expect(statSync(file).mode & 0o777).toBe(0o640);
    const fresh = join(directory, 'new', 'mcp.json');
    await installEntry('cursor', fresh, 'files', { command: 'node', args: [] });
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
  });

  it('creates a missing file and its folder', async () => {
    const file = join(directory, '.vscode', 'mcp.json');
    const outcome = await installEntry('vscode', file, 'db', { type: 'stdio', command: 'node', args: [] });
    expect(outcome.backup).toBeUndefined();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      servers: { db: { type: 'stdio', command: 'node', args: [] } },
    });
  });

  it('leaves a file that is not valid JSON untouched and says so', async () => {
    const file = join(directory, 'mcp.json');
    writeFileSync(file, '{ "mcpServers": ');
    await expect(installEntry('cursor', file, 'db', { command: 'node', args: [] })).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": ');
    expect(readdirSync(directory)).toEqual(['mcp.json']);
  });

  it('edits a JSONC config in place, keeping its comments', async () => {
    const file = join(directory, 'mcp.json');
    const text = '{\n  // my servers\n  "servers": {\n    "old": { "command": "x" }, // keep me\n  },\n}\n';
    writeFileSync(file, text);
    await installEntry('vscode', file, 'db', { type: 'stdio', command: 'node', args: [] });
    const written = readFileSync(file, 'utf8');
    expect(written).toContain('// my servers');
    expect(written).toContain('// keep me');
    expect(parseJsonc(written, file)).toEqual({
      servers: { old: { command: 'x' }, db: { type: 'stdio', command: 'node', args: [] } },
    });
  });

  it('refuses to replace a servers key that is not an object', () => {
    expect(() => mergeEntry('cursor', { mcpServers: [] }, 'db', { command: 'node', args: [] })).toThrow(
      /not an object/,
    );
  });
});
