import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyEdits, modify } from 'jsonc-parser';
import { claudeDesktopConfigPath } from '../config/load-config.js';
import { parseJsonc } from '../config/parse-jsonc.js';
import { errorMessage, HostError } from '../errors.js';

/** The clients whose config files `mcpkit-host install` knows. */
export type ClientName = 'claude' | 'cursor' | 'vscode';

/** The reference servers of this checkout that can be installed. */
export const installableServers = {
  database: 'servers/database/bin/mcpkit-database.js',
  filesystem: 'servers/filesystem/bin/mcpkit-filesystem.js',
  search: 'servers/search/bin/mcpkit-search.js',
} as const;

export type InstallableServer = keyof typeof installableServers;

/** The root of the checkout this host runs from (packages/agent-host/dist/install -> four levels up). */
export const checkoutRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where a client keeps its MCP servers: Claude Desktop's and Cursor's user configs, VS Code's workspace file. */
export function clientConfigPath(client: ClientName, workspace = process.cwd(), home = homedir()): string {
  if (client === 'claude') return claudeDesktopConfigPath(process.platform, home);
  if (client === 'cursor') return join(home, '.cursor', 'mcp.json');
  return join(workspace, '.vscode', 'mcp.json');
}

/** One server entry in a client's format. */
export type ClientEntry = { command: string; args: string[] } | { type: 'stdio'; command: string; args: string[] };

/**
 * The entry that starts one of our servers from this checkout. The command is the absolute path of the Node that runs
 * the host, because desktop apps often start servers without the user's shell PATH.
 */
export function serverEntry(
  client: ClientName,
  server: InstallableServer,
  args: string[],
  root = checkoutRoot,
  node = process.execPath,
): ClientEntry {
  const bin = join(root, installableServers[server]);
  if (!existsSync(bin)) {
    throw new HostError('USAGE', `${bin} does not exist: run mcpkit-host install from a built mcpkit checkout.`);
  }
  const command = { command: node, args: [bin, ...args] };
  return client === 'vscode' ? { type: 'stdio', ...command } : command;
}

/** The key under which a client lists its servers. */
function serversKey(client: ClientName): 'servers' | 'mcpServers' {
  return client === 'vscode' ? 'servers' : 'mcpServers';
}

/** The whole config with one entry added or replaced, leaving every other key as it was. */
export function mergeEntry(
  client: ClientName,
  existing: Record<string, unknown>,
  name: string,
  entry: ClientEntry,
): Record<string, unknown> {
  const key = serversKey(client);
  const current = existing[key];
  if (current !== undefined && (typeof current !== 'object' || current === null || Array.isArray(current))) {
    throw new HostError('CONFIG_INVALID', `"${key}" in the existing config is not an object; not changing it.`);
  }
  return { ...existing, [key]: { ...(current as Record<string, unknown> | undefined), [name]: entry } };
}

/** What `installEntry` did. */
export interface InstallOutcome {
  file: string;
  /** The copy of the previous file, when there was one. */
  backup?: string;
  replaced: boolean;
}

/**
 * Merges the entry into the client's config file: the previous file is copied to a timestamped backup first, the new
 * one is written to a temporary file and renamed into place, and a file that is not valid JSON is left untouched.
 * The file is read as JSONC, as VS Code and Cursor write it, and edited in place, so its comments and layout stay.
 */
export async function installEntry(
  client: ClientName,
  file: string,
  name: string,
  entry: ClientEntry,
  now = new Date(),
): Promise<InstallOutcome> {
  let existing: Record<string, unknown> = {};
  let text = '';
  let backup: string | undefined;
  // A new file is private (client configs often hold API keys in `env`); an existing one keeps its permissions.
  let mode = 0o600;
  if (existsSync(file)) {
    mode = (await stat(file)).mode & 0o777;
    text = await readFile(file, 'utf8');
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? {} : parseJsonc(text, file);
    } catch (error) {
      throw new HostError('CONFIG_INVALID', `${errorMessage(error)} Fix it or move it away, then try again.`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new HostError('CONFIG_INVALID', `${file} does not hold a JSON object; not changing it.`);
    }
    existing = parsed as Record<string, unknown>;
    backup = `${file}.backup-${now.toISOString().replace(/[:.]/g, '-')}`;
    await copyFile(file, backup);
  }
  const key = serversKey(client);
  const replaced = Boolean((existing[key] as Record<string, unknown> | undefined)?.[name]);
  const merged = mergeEntry(client, existing, name, entry);
  const written =
    text.trim() === ''
      ? `${JSON.stringify(merged, null, 2)}\n`
      : applyEdits(text, modify(text, [key, name], entry, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.tmp-${process.pid}`;
  await writeFile(temporary, written, { encoding: 'utf8', mode });
  await chmod(temporary, mode); // exactly, whatever the umask
  await rename(temporary, file);
  return { file, ...(backup ? { backup } : {}), replaced };
}

/** The snippet to paste by hand: the entry under the client's key. */
export function snippet(client: ClientName, name: string, entry: ClientEntry): string {
  return `${JSON.stringify({ [serversKey(client)]: { [name]: entry } }, null, 2)}\n`;
}
