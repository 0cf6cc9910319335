import { fileURLToPath } from 'node:url';
import { modulesLoadedAnswering } from '@mcpkit/server-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import {
  answerMarker,
  bundledSources,
  bundleTextProblems,
  distFiles,
  fileReferences,
  modulesLoadedBefore,
  toolsListHandshake,
} from '../../../scripts/tools/server-bundle-checks.mjs';
import { binPath, makeFixture } from './fixtures.js';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));

describe('the bundled build (ADR 0021)', () => {
  const fixture = makeFixture();
  afterAll(() => fixture.cleanup());

  it('is ASCII without doc comments, as the kit (V8 keeps a module source at two bytes a character once one is not)', () => {
    expect(bundleTextProblems(packageRoot)).toEqual([]);
  });

  it('has the worker process entry the SQLite engine starts where the bundle and src/ name it', () => {
    const references = fileReferences(packageRoot);
    expect(references.filter((reference) => !reference.exists)).toEqual([]);
    // Named once in src/ (the worker calls) and once in the bundle (the chunk that holds their code).
    expect(references.map((reference) => reference.target)).toEqual([
      'dist/engines/sqlite/sqlite-process.js',
      'dist/engines/sqlite/sqlite-process.js',
    ]);
    expect(references.filter((reference) => reference.source.startsWith('dist/chunks/'))).toHaveLength(1);
  });

  it('answers tools/list from the bin after reading a few bundled files', async () => {
    const run = await modulesLoadedAnswering([binPath, fixture.file], toolsListHandshake, { preload: answerMarker(2) });
    expect(run.exit).toBe(0);
    // The first worker's timer loads the worker calls (`import()`, one chunk; ADR 0205); it can fire before the
    // answer on a loaded machine, so that file does not count.
    const files = distFiles(packageRoot, modulesLoadedBefore(run.stderr, 2)).filter(
      (file) => !/\/chunks\/worker-calls-[^/]+\.js$/.test(file),
    );
    const sources = bundledSources(packageRoot, files);
    // The log works: the tools and the SQLite engine were loaded, from the bundle.
    expect(sources).toEqual(
      expect.arrayContaining(['src/main.ts', 'src/tools/query.ts', 'src/engines/sqlite/sqlite-engine.ts']),
    );
    // main and the server chunk (the definitions and the SQLite engine's front): 22 files before the bundle, 5 before
    // the worker calls and the result code left the start (ADR 0205).
    expect(files.length).toBeLessThanOrEqual(2);
  });
});
