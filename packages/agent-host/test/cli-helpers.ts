import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixturePath, type ProcessRun, runProcess } from './helpers.js';

/** The built command line's entry. */
export const bin = fileURLToPath(new URL('../bin/mcpkit-host.js', import.meta.url));

/** Runs the built command line in a directory, with no model variables unless given. */
export function cli(
  args: string[],
  options: { cwd: string; input?: string; env?: Record<string, string> },
): Promise<ProcessRun> {
  const environment: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'MCPKIT_MODEL']) {
    if (!options.env?.[name]) delete environment[name];
  }
  return runProcess(process.execPath, [bin, ...args], { ...options, env: environment });
}

/** A fresh directory holding a config (written as JSON unless given as text) and, when given, a model script. */
export function workspace(config: unknown, script?: unknown, file = 'mcp.json'): string {
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-host-cli-'));
  mkdirSync(join(directory, '.vscode'), { recursive: true });
  mkdirSync(join(directory, file, '..'), { recursive: true });
  writeFileSync(join(directory, file), typeof config === 'string' ? config : JSON.stringify(config));
  if (script) writeFileSync(join(directory, 'script.json'), JSON.stringify(script));
  return directory;
}

/** A stdio entry running the echo fixture under a name. */
export const echoServer = (name: string) => ({
  command: process.execPath,
  args: [fixturePath('echo-server.mjs'), name],
});

/** A stdio entry that only writes a marker file when started (and then exits), to count what a command starts. */
export const markerServer = (marker: string) => ({
  command: process.execPath,
  args: ['-e', "require('node:fs').writeFileSync(process.argv[1], 'started')", marker],
});
