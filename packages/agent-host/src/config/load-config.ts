import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { HostError } from '../errors.js';
import { type ParseConfigOptions, parseConfig } from './parse-config.js';
import { parseJsonc } from './parse-jsonc.js';
import type { HostConfig } from './server-config.js';

/** Where Claude Desktop keeps its config on this platform. */
export function claudeDesktopConfigPath(platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (platform === 'darwin')
    return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32') {
    return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  }
  return join(process.env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Claude', 'claude_desktop_config.json');
}

/**
 * The files tried when no config is named, in order: `./mcp.json`, Claude Code's `./.mcp.json`, VS Code's
 * `./.vscode/mcp.json`, Cursor's `./.cursor/mcp.json`, Claude Desktop's.
 */
export function defaultConfigPaths(cwd = process.cwd()): string[] {
  return [
    join(cwd, 'mcp.json'),
    join(cwd, '.mcp.json'),
    join(cwd, '.vscode', 'mcp.json'),
    join(cwd, '.cursor', 'mcp.json'),
    claudeDesktopConfigPath(),
  ];
}

/** Finds the config to use: the one named, or the first default that exists. */
export function findConfigFile(named?: string, cwd = process.cwd()): string {
  if (named !== undefined) {
    const path = resolve(cwd, named);
    if (!existsSync(path)) throw new HostError('CONFIG_NOT_FOUND', `Config file ${path} does not exist.`);
    return path;
  }
  const candidates = defaultConfigPaths(cwd);
  const found = candidates.find((path) => existsSync(path));
  if (!found) {
    throw new HostError(
      'CONFIG_NOT_FOUND',
      `No config found (tried ${candidates.join(', ')}). Pass --config FILE with an "mcpServers" or "servers" object.`,
    );
  }
  return found;
}

/**
 * Reads and parses a config file (JSON with comments and trailing commas); `${workspaceFolder}` is the folder holding
 * it (the parent of `.vscode` or `.cursor`).
 */
export async function loadConfigFile(
  path: string,
  options: Omit<ParseConfigOptions, 'file'> = {},
): Promise<HostConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HostError('CONFIG_NOT_FOUND', `Cannot read config file ${path}.`, { cause: error });
  }
  const json = parseJsonc(text, path);
  const folder = dirname(path);
  const workspaceFolder = ['.vscode', '.cursor'].includes(basename(folder)) ? dirname(folder) : folder;
  return parseConfig(json, { workspaceFolder, ...options, file: path });
}
