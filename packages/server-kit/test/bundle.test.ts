import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleTextProblems } from '../../../scripts/tools/server-bundle-checks.mjs';
import { currentBundleSources, expectFreshBundle } from './support/fresh-bundle.js';

const packageRoot = new URL('../', import.meta.url);
const packageJson = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8')) as {
  exports: Record<string, { types: string; default: string }>;
};

describe('the bundled build (ADR 0020)', () => {
  it('was built from the sources, bundler config and rolldown as they are now (run `npm run build` in packages/server-kit)', async () => {
    // The listing covers what it should: the sources, the config itself and the TypeScript configuration.
    const current = Object.keys((await currentBundleSources()).files);
    expect(current).toEqual(
      expect.arrayContaining(['src/index.ts', 'src/off-thread/task-worker.ts', 'rolldown.config.mjs', 'tsconfig.json']),
    );
    expect(current.some((path) => path.endsWith('/tsconfig.base.json'))).toBe(true);
    expect(current.some((path) => path.endsWith('.test.ts'))).toBe(false);
    await expectFreshBundle();
  });

  it('is ASCII without doc comments: V8 keeps a module source for the life of the process, at two bytes a character once one is not', () => {
    expect(bundleTextProblems(fileURLToPath(packageRoot))).toEqual([]);
  });

  it('gives every entry the same class or function for a name exported by several entries', async () => {
    const entries = await Promise.all(
      Object.entries(packageJson.exports).map(async ([subpath, target]) => ({
        subpath,
        exports: (await import(new URL(target.default, packageRoot).href)) as Record<string, unknown>,
      })),
    );
    const byName = new Map<string, { subpath: string; value: unknown }[]>();
    for (const entry of entries) {
      for (const [name, value] of Object.entries(entry.exports)) {
        byName.set(name, [...(byName.get(name) ?? []), { subpath: entry.subpath, value }]);
      }
    }
    const shared = [...byName].filter(([, values]) => values.length > 1);
    // ToolError (`.` and `./task`), compileGlob and assertGlob (`.`, `./task` and `./cli`) at least.
    expect(shared.map(([name]) => name)).toEqual(expect.arrayContaining(['ToolError', 'compileGlob', 'assertGlob']));
    for (const [name, values] of shared) {
      expect(new Set(values.map((entry) => entry.value)).size, `${name} in ${values.map((v) => v.subpath)}`).toBe(1);
    }
  });
});
