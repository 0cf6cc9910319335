import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageRoot = new URL('../', import.meta.url);
const packageJson = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8')) as {
  exports: Record<string, { types: string; default: string }>;
};

/** The source files the bundle should have been built from (as rolldown.config.mjs lists them), with digests. */
function currentSources(): Record<string, string> {
  const folder = fileURLToPath(new URL('src/', packageRoot));
  const files = (readdirSync(folder, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort();
  return Object.fromEntries(
    files.map((file) => [
      file,
      createHash('sha256')
        .update(readFileSync(`${folder}${file}`))
        .digest('hex'),
    ]),
  );
}

describe('the bundled build (ADR 0020)', () => {
  it('was built from the sources as they are now (run `npm run build` in packages/server-kit)', () => {
    const built = JSON.parse(readFileSync(new URL('dist/bundle-sources.json', packageRoot), 'utf8'));
    expect(built).toEqual(currentSources());
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
