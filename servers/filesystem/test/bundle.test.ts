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
import { createFixture } from './fixture.js';

// These tests read the built bundle: `pnpm build` (or turbo) first.
const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const bin = fileURLToPath(new URL('../bin/mcpkit-filesystem.js', import.meta.url));

describe('the bundled build (ADR 0021)', () => {
  const fixture = createFixture();
  afterAll(() => fixture.cleanup());

  it('is ASCII without doc comments, as the kit (V8 keeps a module source at two bytes a character once one is not)', () => {
    expect(bundleTextProblems(packageRoot)).toEqual([]);
  });

  it('has every task module the worker pool runs where the bundle and src/ name it', () => {
    const references = fileReferences(packageRoot);
    expect(references.filter((reference) => !reference.exists)).toEqual([]);
    // Each named by its tool in src/, and again by the bundle's file that holds the tool's code.
    expect([...new Set(references.map((reference) => reference.target))].sort()).toEqual([
      'dist/content-search/file-scan-task.js',
      'dist/editing/edit-task.js',
    ]);
    expect(references.filter((reference) => reference.source.startsWith('dist/'))).toHaveLength(2);
  });

  it('answers tools/list from the bin after reading a few bundled files', async () => {
    const run = await modulesLoadedAnswering([bin, fixture.root], toolsListHandshake, { preload: answerMarker(2) });
    expect(run.exit).toBe(0);
    const files = distFiles(packageRoot, modulesLoadedBefore(run.stderr, 2));
    const sources = bundledSources(packageRoot, files);
    // The log works: the tools were loaded, from the bundle.
    expect(sources).toEqual(expect.arrayContaining(['src/main.ts', 'src/tools/grep.ts', 'src/server.ts']));
    // main, server, and what the start shares with the task modules: 29 files before.
    expect(files.length).toBeLessThanOrEqual(3);
  });
});
