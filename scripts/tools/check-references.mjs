#!/usr/bin/env node
// The project-reference guard (ADR 0020): every workspace package whose build runs `tsc -b` references the build
// project of every workspace package its built sources import. `tsc -b` decides a project is up to date from its own
// sources and its references' outputs, never from the `.d.ts` it reads through node_modules: without the reference, a
// package whose code no longer fits a dependency's declarations (an export gone, an option's type changed) still
// "builds" and fails only when run (checked: the gateway against agent-host without `findConfigFile`).
// It reads every package of the workspace, so it runs in `npm test` before turbo, uncached: inside one package's
// cached test task, an edit to another package's tsconfig would replay the last pass.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The workspace's packages (the folders pnpm-workspace.yaml names), with the project their build runs tsc -b on. */
export function workspacePackages(workspaceRoot = root) {
  return ['packages', 'servers', 'examples']
    .flatMap((group) => readdirSync(join(workspaceRoot, group)).map((name) => join(workspaceRoot, group, name)))
    .filter((folder) => existsSync(join(folder, 'package.json')))
    .map((folder) => {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
      const project = /\btsc -b (\S+)/.exec(manifest.scripts?.build ?? '')?.[1];
      return { name: manifest.name, folder, buildProject: project ? join(folder, project) : undefined };
    });
}

/** The workspace packages a package's built sources (`src/`, tests left out) import, by name. */
function importedPackages(folder, names) {
  const source = join(folder, 'src');
  if (!existsSync(source)) return [];
  const text = readdirSync(source, { recursive: true })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => readFileSync(join(source, file), 'utf8'))
    .join('\n');
  return names.filter((name) => new RegExp(`(from |import\\()'${name}(/[^']*)?'`).test(text));
}

/** Every import that needs a reference, as `project -> package`, and the sentences naming what is wrong. */
export function checkReferences(workspaceRoot = root) {
  const packages = workspacePackages(workspaceRoot);
  const byName = new Map(packages.map((entry) => [entry.name, entry]));
  const expected = [];
  const problems = [];
  for (const dependent of packages.filter((entry) => entry.buildProject)) {
    const config = JSON.parse(readFileSync(dependent.buildProject, 'utf8'));
    const referenced = (config.references ?? []).map((reference) => {
      const path = resolve(dirname(dependent.buildProject), reference.path);
      return path.endsWith('.json') ? path : join(path, 'tsconfig.json');
    });
    for (const name of importedPackages(dependent.folder, [...byName.keys()])) {
      const dependency = byName.get(name);
      if (dependency === dependent) continue;
      const pair = `${relative(workspaceRoot, dependent.buildProject)} -> ${name}`;
      expected.push(pair);
      if (!dependency.buildProject) problems.push(`${name} is imported by ${pair} but has no tsc -b build project.`);
      else if (!referenced.includes(dependency.buildProject)) {
        problems.push(
          `${relative(workspaceRoot, dependent.buildProject)} imports ${name} but does not reference ${relative(workspaceRoot, dependency.buildProject)}.`,
        );
      }
    }
  }
  return { expected, problems };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { expected, problems } = checkReferences();
  // The check must see the kit's dependents and the host's, or it reads the workspace wrongly.
  for (const pair of [
    'examples/hello-server/tsconfig.build.json -> @mcpkit/server-kit',
    'servers/gateway/tsconfig.build.json -> @mcpkit/agent-host',
  ]) {
    if (!expected.includes(pair)) problems.push(`The check did not find ${pair}: it reads the workspace wrongly.`);
  }
  if (problems.length > 0) {
    process.stderr.write(`Project references missing (ADR 0020):\n${problems.map((line) => `  ${line}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stderr.write(`Project references: ${expected.length} imports between workspace packages, each referenced.\n`);
}
