import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The fixture server's entry file. */
export const fixtureServer = fileURLToPath(new URL('../fixtures/stdio-server.mjs', import.meta.url));

/** A child process whose stdout and stderr are collected as they arrive. */
export interface Child {
  process: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  exited: Promise<number | string>;
  /** Writes one JSON-RPC message as a line on stdin. */
  send(message: Record<string, unknown>): void;
  /** Waits until stdout has the response to request `id`, and returns it. */
  response(id: number): Promise<Record<string, unknown>>;
}

/** Starts the fixture server with `args`. */
export function startFixture(args: string[] = []): Child {
  return startNodeProcess(fixtureServer, args);
}

/** Starts the script `file` with `args` in a Node process of its own. */
export function startNodeProcess(file: string, args: string[] = []): Child {
  const child = spawn(process.execPath, [file, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const lines = () =>
    stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    process: child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    send: (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    response: async (id) => {
      await expect.poll(() => lines().some((line) => line.id === id), { timeout: 20_000 }).toBe(true);
      return lines().find((line) => line.id === id) as Record<string, unknown>;
    },
  };
}

/** Runs the initialize handshake over the child's stdio. */
export async function initialize(child: Child): Promise<void> {
  child.send({
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  await child.response(0);
  child.send({ method: 'notifications/initialized' });
}
