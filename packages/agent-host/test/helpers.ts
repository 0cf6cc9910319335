import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defaultCallTimeoutMs, type ServerConfig } from '../src/config/server-config.js';

/** The absolute path of a fixture server. */
export function fixturePath(file: string): string {
  return fileURLToPath(new URL(`./fixtures/${file}`, import.meta.url));
}

/** A stdio server config running a fixture with this Node. */
export function fixtureServer(name: string, file: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    name,
    transport: { kind: 'stdio', command: process.execPath, args: [fixturePath(file), name], env: {} },
    tools: {},
    callTimeoutMs: defaultCallTimeoutMs,
    startupTimeoutMs: 20_000,
    disabled: false,
    ...overrides,
  };
}

/** Whether a process is alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Collects server log lines instead of printing them. */
export function collectLog(): { lines: string[]; sink: (server: string, line: string) => void } {
  const lines: string[] = [];
  return { lines, sink: (server, line) => lines.push(`[${server}] ${line}`) };
}

/** The text of a tool result's text blocks. */
export function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** What a finished process printed and how it ended. */
export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end with the given stdin, collecting its output. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
