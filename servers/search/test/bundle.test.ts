import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { modulesLoadedAnswering } from '@mcpkit/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerMarker,
  bundledSources,
  bundleTextProblems,
  distFiles,
  fileReferences,
  modulesLoadedBefore,
  toolsListHandshake,
} from '../../../scripts/tools/server-bundle-checks.mjs';

// These tests read the built bundle: `pnpm build` (or turbo) first.
const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const bin = fileURLToPath(new URL('../bin/mcpkit-search.js', import.meta.url));
const corpus = fileURLToPath(new URL('./fixtures/company/', import.meta.url));

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'mcpkit-search-bundle-'));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe('the bundled build (ADR 0021)', () => {
  it('is ASCII without doc comments, as the kit (V8 keeps a module source at two bytes a character once one is not)', () => {
    expect(bundleTextProblems(packageRoot)).toEqual([]);
  });

  it('has every worker thread and task module where the bundle and src/ name it', () => {
    const references = fileReferences(packageRoot);
    expect(references.filter((reference) => !reference.exists)).toEqual([]);
    // Each named by its module in src/, and again by the bundle's file that holds that module's code.
    expect([...new Set(references.map((reference) => reference.target))].sort()).toEqual([
      'dist/fetch/html-to-markdown-task.js',
      'dist/fetch/plain-text-task.js',
      'dist/local-index/preparation-worker.js',
      'dist/local-index/search-task.js',
      'dist/local-index/writer-worker.js',
    ]);
    expect(references.filter((reference) => reference.source.startsWith('dist/'))).toHaveLength(5);
  });

  it("loads no DOM, Readability or Turndown for a fetched page's plain-text fallback", async () => {
    // The fallback runs on a fresh worker under the time limit the conversion ran out of: loading the converters there
    // again took seconds on a loaded machine, and the model got the time-limit sentence instead of the page's text.
    const packagesLoadedBy = async (task: string, name: string) => {
      const url = new URL(`../dist/fetch/${task}`, import.meta.url).href;
      const run = await modulesLoadedAnswering(
        [
          '--input-type=module',
          '--eval',
          `const task = await import(${JSON.stringify(url)});
const page = await task.${name}({ html: '<html><head><title>Soup</title></head><body><div></b>soup</body></html>', why: 'a test', url: 'http://localhost/' });
process.stderr.write('page: ' + JSON.stringify(page) + '\\n');`,
        ],
        [],
      );
      expect(run.exit, run.stderr).toBe(0);
      expect(run.stderr).toContain('page: {"title":"Soup"');
      return run.modules.filter((module) => /\/node_modules\/.*(linkedom|readability|turndown)/.test(module));
    };
    expect(await packagesLoadedBy('plain-text-task.js', 'convertToPlainText')).toEqual([]);
    // The log would show them: the conversion's task loads all three.
    const converters = await packagesLoadedBy('html-to-markdown-task.js', 'convertToMarkdown');
    for (const name of ['linkedom', 'readability', 'turndown']) {
      expect(converters.some((module) => module.includes(name))).toBe(true);
    }
  });

  it('answers tools/list from the bin after reading a few bundled files', async () => {
    const run = await modulesLoadedAnswering(
      [bin, '--index-file', join(workspace, 'index.sqlite'), '--no-watch', corpus],
      toolsListHandshake,
      { preload: answerMarker(2) },
    );
    expect(run.exit).toBe(0);
    const files = distFiles(packageRoot, modulesLoadedBefore(run.stderr, 2));
    const sources = bundledSources(packageRoot, files);
    // The log works: the tools were loaded, from the bundle.
    expect(sources).toEqual(expect.arrayContaining(['src/main.ts', 'src/tools/search.ts', 'src/server.ts']));
    // main, server, and what the start shares with the worker threads: 19 files before.
    expect(files.length).toBeLessThanOrEqual(3);
  });
});
