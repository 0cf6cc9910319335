#!/usr/bin/env node
// A throwaway PostgreSQL cluster for the tests and the benchmark: finds the server binaries (PATH, /usr/local/bin,
// /usr/lib/postgresql/*/bin), installs them with apt-get when they are missing and we are root, and starts a
// cluster owned by the caller on a free loopback port, with password authentication and a test database.
//   node servers/database/scripts/postgres-cluster.mjs   starts one, prints its URL, stops it on Ctrl-C
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../scripts/tools/free-port.mjs';

const superuser = 'mcpkit';
const superuserPassword = 'mcpkit-test-password';
/** A role with only SELECT grants: the role the docs recommend for a read-only server. */
export const readerRole = { name: 'mcpkit_reader', password: 'reader-test-password' };
export const testDatabase = 'mcpkit_test';

function findBinaries() {
  const candidates = [];
  for (const directory of (process.env.PATH ?? '').split(':')) if (directory) candidates.push(directory);
  candidates.push('/usr/local/bin');
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(`/usr/lib/postgresql/${version}/bin`);
  }
  return candidates.find((directory) => existsSync(join(directory, 'initdb')) && existsSync(join(directory, 'pg_ctl')));
}

function install() {
  if (process.getuid?.() !== 0) {
    throw new Error('PostgreSQL is not installed and installing it needs root: apt-get install postgresql.');
  }
  const run = (args) => {
    const result = spawnSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status}).`);
  };
  run(['update']);
  run(['install', '-y', '--no-install-recommends', 'postgresql']);
}

/** Starts a cluster; resolves with its URLs and a stop function. */
export async function startPostgresCluster() {
  let binaries = findBinaries();
  if (!binaries) {
    install();
    binaries = findBinaries();
    if (!binaries) throw new Error('PostgreSQL was installed but initdb and pg_ctl were not found.');
  }
  // PostgreSQL refuses to run as root; as root, the cluster belongs to the postgres user the package creates.
  const asRoot = process.getuid?.() === 0;
  let owner;
  if (asRoot) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (id.status !== 0) throw new Error('Running as root, but there is no postgres user to own the cluster.');
    owner = { uid: Number(id.stdout.trim()), gid: Number(group.stdout.trim()) };
  }
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-postgres-'));
  const data = join(directory, 'data');
  const passwordFile = join(directory, 'password');
  writeFileSync(passwordFile, `${superuserPassword}\n`);
  if (owner) {
    chownSync(directory, owner.uid, owner.gid);
    chownSync(passwordFile, owner.uid, owner.gid);
  }
  chmodSync(directory, 0o700);
  const command = (name, args) => {
    const binary = join(binaries, name);
    const [file, fullArgs] = owner ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
    execFileSync(file, fullArgs, { stdio: ['ignore', 'ignore', 'pipe'], cwd: directory });
  };
  const port = await freePort();
  command('initdb', [
    '-D',
    data,
    '-U',
    superuser,
    `--pwfile=${passwordFile}`,
    '--auth=scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=50`;
  command('pg_ctl', ['-D', data, '-o', options, '-l', join(directory, 'server.log'), '-w', '-t', '60', 'start']);
  const stop = () => {
    try {
      command('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Already stopped.
    }
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    const pg = (await import('pg')).default;
    const admin = new pg.Client({
      host: '127.0.0.1',
      port,
      user: superuser,
      password: superuserPassword,
      database: 'postgres',
    });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${testDatabase}`);
    await admin.query(`CREATE ROLE ${readerRole.name} LOGIN PASSWORD '${readerRole.password}'`);
    await admin.end();
  } catch (error) {
    stop();
    throw error;
  }
  const base = `postgres://${superuser}:${superuserPassword}@127.0.0.1:${port}`;
  return {
    port,
    url: `${base}/${testDatabase}`,
    readerUrl: `postgres://${readerRole.name}:${readerRole.password}@127.0.0.1:${port}/${testDatabase}`,
    stop,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const cluster = await startPostgresCluster();
  process.stderr.write(`PostgreSQL on ${cluster.url} (Ctrl-C stops it)\n`);
  const stop = () => {
    cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  setInterval(() => {}, 1 << 30);
}
