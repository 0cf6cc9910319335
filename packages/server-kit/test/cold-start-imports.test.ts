import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  answerMarker,
  bundledSources,
  distFiles,
  modulesLoadedBefore,
} from '../../../scripts/tools/server-bundle-checks.mjs';
import { modulesLoadedAnswering } from '../src/testing/modules-loaded.js';
import { expectFreshBundle } from './support/fresh-bundle.js';

// This file runs the bundle in dist/: it fails at once, saying so, on a bundle older than the kit's files.
beforeAll(expectFreshBundle);

const server = fileURLToPath(new URL('./fixtures/cold-start-server.mjs', import.meta.url));
const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const packageDist = `${packageRoot}dist/`;

/**
 * What the first tools/list needs none of (ADR 0020): each is loaded by the first request that uses it (the tests of
 * prompts/get, resources/read, rounds and the worker pool run those paths). Built-ins and packages by their URL; the
 * kit's own modules by their source file, read from the source maps of the bundle's files that were loaded.
 */
const loadedOnFirstUse = ['node:crypto', 'node:worker_threads', 'node:os', '@modelcontextprotocol/client'];
/**
 * Built-ins the kit takes with `process.getBuiltinModule` instead of importing them: the ES module facade of
 * `node:util` reads every export, which loads the modules behind `MIMEType` and `parseArgs` at each start (ADR 0020).
 */
const neverImported = ['node:util'];
const sourcesLoadedOnFirstUse = [
  'src/rounds/input-rounds.ts',
  'src/rounds/round-state.ts',
  'src/rounds/digest.ts',
  'src/rounds/modern-asks.ts',
  'src/get-prompt.ts',
  'src/read-resource.ts',
  'src/off-thread/compiled-module.ts',
  'src/transports/http-endpoint.ts',
  'src/auth/resource-server.ts',
];
/**
 * The tool-call path: loaded right after the first tools/list answer is written (or by a call that comes first), not
 * before that answer (ADR 0020).
 */
const callPathSources = [
  'src/run-tool.ts',
  'src/tool-context.ts',
  'src/result-budget.ts',
  'src/fit-json.ts',
  'src/sampling-params.ts',
];

const initialize = {
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cold-start-test', version: '1' } },
};

describe('cold start of a kit server', () => {
  it('loads nothing that tools/list does not need before answering it, from a few bundled files', async () => {
    const run = await modulesLoadedAnswering(
      [server],
      [
        initialize,
        { method: 'notifications/initialized' },
        { id: 2, method: 'tools/list' },
        { id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'after the list' } } },
      ],
      { preload: answerMarker(2) },
    );
    expect(run.exit).toBe(0);
    const listing = modulesLoadedBefore(run.stderr, 2);
    const kitFiles = distFiles(packageRoot, listing);
    // The log works: the kit's entry and the SDK's server were seen.
    expect(kitFiles).toContain(`${packageDist}index.js`);
    expect(listing.some((url) => url.includes('@modelcontextprotocol/server'))).toBe(true);
    const sources = bundledSources(packageRoot, kitFiles);
    expect(sources).toContain('src/create-server.ts');
    // The entry is bundled (ADR 0020): a handful of files, not one per module (38 before the bundle).
    expect(kitFiles.length).toBeLessThanOrEqual(6);
    expect(sources.length).toBeGreaterThan(20);
    expect(listing.filter((url) => loadedOnFirstUse.some((name) => url.includes(name)))).toEqual([]);
    expect(listing.filter((url) => neverImported.includes(url))).toEqual([]);
    expect(sources.filter((source) => sourcesLoadedOnFirstUse.includes(source))).toEqual([]);
    expect(sources.filter((source) => callPathSources.includes(source))).toEqual([]);
    // The call path came after the answer, and the call ran on it: one more file of the kit, the call path's chunk
    // (the sampling parameters, which a round's asks share, are in it rather than in a chunk of their own).
    const laterFiles = distFiles(packageRoot, run.modules).filter((file) => !kitFiles.includes(file));
    expect(laterFiles).toHaveLength(1);
    const later = bundledSources(packageRoot, laterFiles);
    expect(callPathSources.filter((source) => !later.includes(source))).toEqual([]);
    expect(run.stderr).not.toContain('could not');
  });
});
