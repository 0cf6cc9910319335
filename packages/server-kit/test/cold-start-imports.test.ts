import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const server = fileURLToPath(new URL('./fixtures/cold-start-server.mjs', import.meta.url));
const logLoadedModules = fileURLToPath(new URL('./fixtures/log-loaded-modules.mjs', import.meta.url));

/**
 * Runs the fixture server with every loaded module logged, sends `lines` on its stdin, waits for the answer to each
 * request, closes stdin, and returns the module URLs loaded by then (the close path included).
 */
async function modulesLoadedAnswering(lines: Record<string, unknown>[]): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', logLoadedModules, server], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const answered = (id: unknown) =>
    stdout
      .split('\n')
      .filter(Boolean)
      .some((line) => (JSON.parse(line) as { id?: unknown }).id === id);
  for (const line of lines) {
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...line })}\n`);
    if (line.id !== undefined) await expect.poll(() => answered(line.id), { timeout: 20_000 }).toBe(true);
  }
  child.stdin.end();
  expect(await exited).toBe(0);
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('loaded '))
    .map((line) => line.slice('loaded '.length));
}

/**
 * What the first tools/list needs none of (ADR 0020): each is loaded by the first request that uses it (the tests of
 * prompts/get, resources/read, rounds and the worker pool run those paths).
 */
const loadedOnFirstUse = [
  'node:crypto',
  'node:worker_threads',
  'node:os',
  '/dist/rounds/input-rounds.js',
  '/dist/rounds/round-state.js',
  '/dist/rounds/digest.js',
  '/dist/rounds/modern-asks.js',
  '/dist/get-prompt.js',
  '/dist/read-resource.js',
  '/dist/off-thread/compiled-module.js',
  '/dist/transports/http-endpoint.js',
  '/dist/auth/resource-server.js',
  '@modelcontextprotocol/client',
];

const initialize = {
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cold-start-test', version: '1' } },
};

describe('cold start of a kit server', () => {
  it('loads nothing that tools/list does not need before answering it', async () => {
    const listing = await modulesLoadedAnswering([
      initialize,
      { method: 'notifications/initialized' },
      { id: 2, method: 'tools/list' },
    ]);
    // The log works: the kit's entry and the SDK's server were seen.
    expect(listing.some((url) => url.endsWith('/server-kit/dist/index.js'))).toBe(true);
    expect(listing.some((url) => url.includes('@modelcontextprotocol/server'))).toBe(true);
    expect(listing.filter((url) => loadedOnFirstUse.some((name) => url.includes(name)))).toEqual([]);
  });
});
