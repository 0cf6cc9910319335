import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type InputOptions, type OutputOptions, RolldownMagicString, rolldown } from 'rolldown';
import { afterEach, describe, expect, it } from 'vitest';
import { serverBundle } from '../../../scripts/server-bundle.mjs';

// The servers' bundle follows `new URL('./file.js', import.meta.url)` to emit the file it names (ADR 0021). A use of
// import.meta.url it cannot follow would leave the file out and fail only when the tool runs: the build refuses it.

let folder: string | undefined;

afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

/** Bundles a one-tool server whose main names its task module with `taskUrl`; resolves with the dist folder. */
async function bundleServer(taskUrl: string): Promise<string> {
  folder = mkdtempSync(join(tmpdir(), 'server-bundle-'));
  mkdirSync(join(folder, 'src'));
  writeFileSync(join(folder, 'src', 'task.ts'), 'export function run(text: string): string { return text; }\n');
  writeFileSync(join(folder, 'src', 'index.ts'), 'export const name = "fixture";\n');
  writeFileSync(join(folder, 'src', 'main.ts'), `export const task = { module: ${taskUrl}, name: 'run' };\n`);
  const options = serverBundle(pathToFileURL(join(folder, 'rolldown.config.mjs')).href, RolldownMagicString);
  const build = await rolldown(options as InputOptions);
  try {
    await build.write(options.output as OutputOptions);
  } finally {
    await build.close();
  }
  return join(folder, 'dist');
}

describe('the servers bundle follows the files a module names by import.meta.url (ADR 0021)', () => {
  it('emits a task module named with a quoted relative path', async () => {
    const dist = await bundleServer("new URL('./task.js', import.meta.url)");
    expect(existsSync(join(dist, 'task.js'))).toBe(true);
  });

  it('refuses to build a use it cannot follow, naming the module', async () => {
    await expect(bundleServer('new URL(`./task.js`, import.meta.url)')).rejects.toThrow(
      /main\.ts uses import\.meta\.url other than as new URL/,
    );
    await expect(bundleServer("new URL('./' + 'task.js', import.meta.url)")).rejects.toThrow(/main\.ts uses/);
  });
});
