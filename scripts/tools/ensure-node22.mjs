#!/usr/bin/env node
// Installs the tools that need Node >= 22 (the MCP conformance suite, the MCP Inspector) into the git-ignored .tools
// folder, from the npm registry only: Node 22 itself comes from the `node` npm package, which ships the binary.
// Idempotent and fast when everything is present; safe to run from several test processes at once (each install goes
// to a temporary folder that is renamed into place).
//
// Command line:
//   node scripts/tools/ensure-node22.mjs                      prints the path of the Node 22 binary
//   node scripts/tools/ensure-node22.mjs --tool PKG@VERSION   also installs PKG; repeatable
//   node scripts/tools/ensure-node22.mjs --json [--tool ...]  prints {"node": PATH, "tools": {PKG: {dir, bins}}}
// From code:
//   import { ensureNode22, ensureNpmTool } from '<root>/scripts/tools/ensure-node22.mjs';
//   const node = ensureNode22();                                      // absolute path of a Node 22 binary
//   const { bins } = ensureNpmTool('@modelcontextprotocol/conformance@0.2.0-alpha.12'); // bins.conformance = its entry
//   spawn(node, [bins.conformance, 'server', '--url', url]);
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's git-ignored tools folder (MCPKIT_TOOLS_DIR overrides it, e.g. to try a fresh install). */
export const toolsDirectory = resolve(
  process.env.MCPKIT_TOOLS_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.tools'),
);

/** The npm spec of the Node runtime; MCPKIT_NODE22_SPEC overrides it (e.g. node@22.23.3 to pin). */
const nodeSpec = process.env.MCPKIT_NODE22_SPEC ?? 'node@22';

function log(message) {
  process.stderr.write(`ensure-node22: ${message}\n`);
}

/** Installs `specs` with npm into `directory` unless `isReady()` already holds; atomic under concurrent callers. */
function installInto(directory, specs, isReady) {
  if (isReady()) return;
  mkdirSync(toolsDirectory, { recursive: true });
  const staging = `${directory}.staging-${process.pid}-${Date.now()}`;
  log(`installing ${specs.join(' ')} into ${directory}`);
  try {
    execFileSync(
      'npm',
      ['install', '--prefix', staging, '--no-audit', '--no-fund', '--loglevel=error', '--no-save', ...specs],
      { stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 },
    );
    try {
      renameSync(staging, directory);
    } catch {
      // The folder exists: another process may have just installed it (then its copy is as good as ours, and may be
      // in use, so it stays), or an unusable old install is in the way (then ours replaces it).
      if (!isReady()) {
        rmSync(directory, { recursive: true, force: true });
        renameSync(staging, directory);
      }
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (!isReady()) throw new Error(`installing ${specs.join(' ')} did not produce a working install in ${directory}`);
}

/** Returns the absolute path of a Node 22 binary, installing the `node` npm package into .tools/node22 if needed. */
export function ensureNode22() {
  const directory = join(toolsDirectory, 'node22');
  const binary = join(directory, 'node_modules', 'node', 'bin', 'node');
  const isReady = () => {
    if (!existsSync(binary)) return false;
    try {
      return execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim().startsWith('v22.');
    } catch {
      return false;
    }
  };
  installInto(directory, [nodeSpec], isReady);
  return binary;
}

/** Splits `@scope/name@1.2.3` into its name and version. */
function parseSpec(spec) {
  const at = spec.lastIndexOf('@');
  if (at <= 0) throw new Error(`give a package with an exact version, e.g. name@1.2.3; got ${JSON.stringify(spec)}`);
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

/**
 * Installs an npm package at an exact version into .tools/npm/<name>@<version> (once) and returns its folder and the
 * absolute paths of its bin entry files, to be run with the Node 22 binary.
 */
export function ensureNpmTool(spec) {
  const { name, version } = parseSpec(spec);
  const directory = join(toolsDirectory, 'npm', `${name.replace('/', '__')}@${version}`);
  const packageFolder = join(directory, 'node_modules', ...name.split('/'));
  const manifestPath = join(packageFolder, 'package.json');
  const isReady = () => {
    try {
      return JSON.parse(readFileSync(manifestPath, 'utf8')).version === version;
    } catch {
      return false;
    }
  };
  mkdirSync(dirname(directory), { recursive: true });
  installInto(directory, [spec], isReady);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const binField = typeof manifest.bin === 'string' ? { [name.split('/').pop()]: manifest.bin } : (manifest.bin ?? {});
  const bins = Object.fromEntries(Object.entries(binField).map(([bin, file]) => [bin, join(packageFolder, file)]));
  return { dir: packageFolder, bins };
}

function main(argv) {
  const tools = [];
  let json = false;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--json') json = true;
    else if (argument === '--tool' && argv[index + 1]) tools.push(argv[++index]);
    else {
      log(`unknown argument ${JSON.stringify(argument)}; usage: ensure-node22.mjs [--json] [--tool PKG@VERSION]...`);
      process.exit(2);
    }
  }
  const node = ensureNode22();
  const installed = Object.fromEntries(tools.map((spec) => [parseSpec(spec).name, ensureNpmTool(spec)]));
  process.stdout.write(json ? `${JSON.stringify({ node, tools: installed }, null, 2)}\n` : `${node}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
