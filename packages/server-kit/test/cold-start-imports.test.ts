import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { modulesLoadedAnswering } from '../src/testing/modules-loaded.js';

const server = fileURLToPath(new URL('./fixtures/cold-start-server.mjs', import.meta.url));

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
    const run = await modulesLoadedAnswering(
      [server],
      [initialize, { method: 'notifications/initialized' }, { id: 2, method: 'tools/list' }],
    );
    expect(run.exit).toBe(0);
    const listing = run.modules;
    // The log works: the kit's entry and the SDK's server were seen.
    expect(listing.some((url) => url.endsWith('/server-kit/dist/index.js'))).toBe(true);
    expect(listing.some((url) => url.includes('@modelcontextprotocol/server'))).toBe(true);
    expect(listing.filter((url) => loadedOnFirstUse.some((name) => url.includes(name)))).toEqual([]);
  });
});
