import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const workspaceRoot = resolve(packageRoot, '../..');
const declarationsProject = join(packageRoot, 'tsconfig.declarations.json');

/** The workspace's packages whose built code imports the kit (a `dependencies` entry) and whose build is `tsc -b`. */
function packagesBuiltOnTheKit(): string[] {
  return ['packages', 'servers', 'examples']
    .flatMap((group) => readdirSync(join(workspaceRoot, group)).map((name) => join(workspaceRoot, group, name)))
    .filter((folder) => existsSync(join(folder, 'tsconfig.build.json')) && existsSync(join(folder, 'package.json')))
    .filter((folder) => {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      return manifest.dependencies?.['@mcpkit/server-kit'] !== undefined;
    });
}

describe('packages built on the kit (ADR 0020)', () => {
  // `tsc -b` decides a project is up to date from its own sources and its references' outputs, never from the
  // `.d.ts` it reads through node_modules: without the reference, a package whose code no longer fits the kit's
  // declarations (an export gone, an option's type changed) still "builds", in turbo's build and by hand.
  it("reference the kit's declarations project, so that their tsc -b checks them against the kit as it is now", () => {
    const dependents = packagesBuiltOnTheKit();
    expect(dependents.length).toBeGreaterThan(0);
    const missing = dependents.filter((folder) => {
      const config = JSON.parse(readFileSync(join(folder, 'tsconfig.build.json'), 'utf8')) as {
        references?: { path: string }[];
      };
      return !(config.references ?? []).some((reference) => resolve(folder, reference.path) === declarationsProject);
    });
    expect(missing.map((folder) => relative(workspaceRoot, folder))).toEqual([]);
  });
});
