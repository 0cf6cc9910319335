import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const workspaceRoot = resolve(packageRoot, '../..');

interface WorkspacePackage {
  name: string;
  folder: string;
  /** The project its build runs `tsc -b` on (the kit and bundled servers: declarations only), if any. */
  buildProject?: string;
}

/** The workspace's packages (the folders pnpm-workspace.yaml names), with the project their build script builds. */
function workspacePackages(): WorkspacePackage[] {
  return ['packages', 'servers', 'examples']
    .flatMap((group) => readdirSync(join(workspaceRoot, group)).map((name) => join(workspaceRoot, group, name)))
    .filter((folder) => existsSync(join(folder, 'package.json')))
    .map((folder) => {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
        name: string;
        scripts?: { build?: string };
      };
      const project = /\btsc -b (\S+)/.exec(manifest.scripts?.build ?? '')?.[1];
      return { name: manifest.name, folder, ...(project ? { buildProject: join(folder, project) } : {}) };
    });
}

/** The workspace packages a package's built sources (`src/`, tests left out) import, by name. */
function importedPackages(folder: string, names: string[]): string[] {
  const source = join(folder, 'src');
  const text = (readdirSync(source, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => readFileSync(join(source, file), 'utf8'))
    .join('\n');
  return names.filter((name) => new RegExp(`(from |import\\()'${name}(/[^']*)?'`).test(text));
}

describe('project references between workspace packages (ADR 0020)', () => {
  // `tsc -b` decides a project is up to date from its own sources and its references' outputs, never from the
  // `.d.ts` it reads through node_modules: without the reference, a package whose code no longer fits a dependency's
  // declarations (an export gone, an option's type changed) still "builds", in turbo's build and by hand, and fails
  // only when run (checked: the gateway against agent-host without `findConfigFile`, ADR 0020).
  it('reference the build project of every workspace package their built code imports, so tsc -b checks them against it as it is now', () => {
    const packages = workspacePackages();
    const byName = new Map(packages.map((entry) => [entry.name, entry]));
    const expected: string[] = [];
    const present: string[] = [];
    for (const dependent of packages.filter((entry) => entry.buildProject)) {
      const config = JSON.parse(readFileSync(dependent.buildProject as string, 'utf8')) as {
        references?: { path: string }[];
      };
      const referenced = (config.references ?? []).map((reference) => {
        const path = resolve(dirname(dependent.buildProject as string), reference.path);
        return path.endsWith('.json') ? path : join(path, 'tsconfig.json');
      });
      for (const name of importedPackages(dependent.folder, [...byName.keys()])) {
        const dependency = byName.get(name) as WorkspacePackage;
        if (dependency === dependent) continue;
        const pair = `${relative(workspaceRoot, dependent.buildProject as string)} -> ${name}`;
        expect(dependency.buildProject, `${name} has no tsc -b build project`).toBeDefined();
        expected.push(pair);
        if (referenced.includes(dependency.buildProject as string)) present.push(pair);
      }
    }
    // The check sees the kit's dependents and the host's.
    expect(expected).toEqual(
      expect.arrayContaining([
        'examples/hello-server/tsconfig.build.json -> @mcpkit/server-kit',
        'servers/gateway/tsconfig.build.json -> @mcpkit/agent-host',
      ]),
    );
    expect(present).toEqual(expected);
  });
});
