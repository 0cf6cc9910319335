// The peer of the filesystem benchmarks: the official @modelcontextprotocol/server-filesystem, installed with npm into
// the git-ignored bench/.data/peers on first use (bench only; the repository's lockfile does not hold it).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const peersDirectory = fileURLToPath(new URL('../.data/peers', import.meta.url));
const packageDirectory = `${peersDirectory}/node_modules/@modelcontextprotocol/server-filesystem`;

/** The official server's entry script, installed first when missing. */
export function officialServerEntry() {
  const entry = `${packageDirectory}/dist/index.js`;
  if (!existsSync(entry)) {
    process.stderr.write('installing the official server into bench/.data/peers (bench only)...\n');
    execFileSync(
      'npm',
      ['install', '--prefix', peersDirectory, '--no-audit', '--no-fund', '@modelcontextprotocol/server-filesystem'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  return entry;
}

/** The installed official server's version. */
export function officialServerVersion() {
  return JSON.parse(readFileSync(`${packageDirectory}/package.json`, 'utf8')).version;
}
