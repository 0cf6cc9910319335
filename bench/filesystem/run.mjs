#!/usr/bin/env node
// Filesystem benchmark: mcpkit-filesystem vs the official @modelcontextprotocol/server-filesystem (and ripgrep/find
// as the floor), side by side in one run, on the generated 100,000-file tree. Both servers run as real stdio child
// processes driven by the official SDK client; times are wall-clock per tool call, medians of several runs.
//
//   node bench/filesystem/run.mjs [--runs N] [--write]   (build first: npx turbo run build --filter=@mcpkit/server-filesystem)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateTree } from './generate-tree.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const writeReadme = process.argv.includes('--write');
const peersDirectory = here('../.data/peers');
const peerEntry = `${peersDirectory}/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`;
const ourBin = here('../../servers/filesystem/bin/mcpkit-filesystem.js');
const say = (line) => process.stderr.write(`${line}\n`);

function ensurePeer() {
  if (existsSync(peerEntry)) return;
  say('installing the official server into bench/.data/peers (bench only)...');
  execFileSync(
    'npm',
    ['install', '--prefix', peersDirectory, '--no-audit', '--no-fund', '@modelcontextprotocol/server-filesystem'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

function ensureRipgrep() {
  if (spawnSync('rg', ['--version']).status === 0) return true;
  say('ripgrep is missing: installing it with apt-get...');
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', 'ripgrep'], { stdio: 'ignore' });
  if (update.status !== 0 || install.status !== 0 || spawnSync('rg', ['--version']).status !== 0) {
    say('could not install ripgrep (apt-get needs root); the ripgrep rows are skipped.');
    return false;
  }
  return true;
}

async function connect(name, args) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  transport.onclose = () => say(`${name} server exited; its last stderr:\n${stderr}`);
  const client = new Client({ name: 'mcpkit-bench', version: '1.0.0' });
  await client.connect(transport);
  return { name, client, pid: transport.pid };
}

const median = (values) => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function timeTool(server, tool, args, times) {
  say(`  ${server.name} ${tool} ${JSON.stringify(args).slice(0, 80)}`);
  const durations = [];
  let size = 0;
  let sample = '';
  for (let run = 0; run < times; run++) {
    const started = performance.now();
    const result = await server.client.callTool({ name: tool, arguments: args }, undefined, { timeout: 600_000 });
    durations.push(performance.now() - started);
    const text = result.content.map((block) => block.text ?? '').join('\n');
    size = Buffer.byteLength(text);
    sample = text;
    if (result.isError) throw new Error(`${server.name} ${tool} failed: ${text}`);
  }
  return { ms: median(durations), size, sample };
}

function timeCommand(command, args, times) {
  const durations = [];
  let size = 0;
  for (let run = 0; run < times; run++) {
    const started = performance.now();
    const result = spawnSync(command, args, { maxBuffer: 1 << 30 });
    durations.push(performance.now() - started);
    size = result.stdout.length;
  }
  return { ms: median(durations), size };
}

const format = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`);
const bytes = (size) =>
  size >= 1024 * 1024
    ? `${(size / 1024 / 1024).toFixed(1)} MB`
    : size >= 1024
      ? `${(size / 1024).toFixed(0)} KB`
      : `${size} B`;

const tree = generateTree();
ensurePeer();
const ripgrep = ensureRipgrep();
const peerVersion = JSON.parse(
  readFileSync(`${peersDirectory}/node_modules/@modelcontextprotocol/server-filesystem/package.json`, 'utf8'),
).version;
const ours = await connect('mcpkit', [ourBin, tree]);
const peer = await connect('official', [peerEntry, tree]);
const rows = [];
let peakMemory = {};
/** A process's peak resident memory (VmHWM), in MB. */
function highWater(pid) {
  try {
    const kilobytes = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Math.round(kilobytes / 1024);
  } catch {
    return undefined;
  }
}
const target = 'file-12345.txt';

say(`tree: ${tree}; ${runs} runs per measurement `);

// Warm the page cache and both processes once.
await timeTool(ours, 'search_files', { path: tree, pattern: target }, 1);
await timeTool(peer, 'search_files', { path: tree, pattern: `**/${target}` }, 1);

{
  const mine = await timeTool(ours, 'search_files', { path: tree, pattern: target }, runs);
  const theirs = await timeTool(peer, 'search_files', { path: tree, pattern: `**/${target}` }, runs);
  const find = timeCommand('find', [tree, '-name', target], runs);
  if (!mine.sample.includes(target) || !theirs.sample.includes(target)) throw new Error('search_files missed the file');
  rows.push(['search_files, one name in 100,000 files', mine, 'official server', theirs]);
  rows.push(['search_files (same)', mine, '`find -name`', find]);
}
{
  const mine = await timeTool(ours, 'grep', { path: tree, pattern: 'zanzibar', maxMatches: 1000 }, runs);
  const mineRegex = await timeTool(ours, 'grep', { path: tree, pattern: 'zanz[a-z]+ needle', maxMatches: 1000 }, runs);
  if (!mine.sample.includes('100 matching lines'))
    throw new Error(`grep found a wrong count: ${mine.sample.slice(-200)}`);
  if (ripgrep) {
    const rg = timeCommand('rg', ['-n', 'zanzibar', tree], runs);
    const rgRegex = timeCommand('rg', ['-n', 'zanz[a-z]+ needle', tree], runs);
    rows.push(['grep, a word in 100,000 files (literal)', mine, '`rg -n`', rg]);
    rows.push(['grep, a regular expression', mineRegex, '`rg -n`', rgRegex]);
  }
}
{
  const part = `${tree}/module-0`;
  const mine = await timeTool(ours, 'directory_tree', { path: part }, runs);
  const theirs = await timeTool(peer, 'directory_tree', { path: part }, runs);
  rows.push(['directory_tree of 10,000 files (first page, JSON)', mine, 'official server (everything)', theirs]);
}
{
  const mine = await timeTool(ours, 'directory_tree', { path: tree }, runs);
  const mineCompact = await timeTool(ours, 'directory_tree', { path: tree, format: 'compact' }, runs);
  rows.push(['directory_tree of 100,000 files (first page, JSON)', mine]);
  rows.push(['directory_tree of 100,000 files (first page, compact)', mineCompact]);
  peakMemory = { ours: highWater(ours.pid), peer: highWater(peer.pid) };
  // The official server answers with the whole tree at once; on this tree that may take long or fail.
  const started = performance.now();
  try {
    const theirs = await timeTool(peer, 'directory_tree', { path: tree }, 1);
    rows[rows.length - 2].push('official server (everything, 1 run)', theirs);
  } catch (error) {
    const failed = { ms: performance.now() - started, size: 0, failed: String(error.message ?? error).slice(0, 60) };
    rows[rows.length - 2].push('official server (everything, 1 run)', failed);
  }
}
await ours.client.close();
await peer.client.close().catch(() => {});

const header = `| operation | mcpkit | result | peer | peer time | peer result | mcpkit speed-up |\n|---|---:|---:|---|---:|---:|---:|`;
const lines = rows.map(([operation, mine, peerName, theirs]) => {
  if (!theirs) return `| ${operation} | ${format(mine.ms)} | ${bytes(mine.size)} | | | | |`;
  if (theirs.failed) {
    return `| ${operation} | ${format(mine.ms)} | ${bytes(mine.size)} | ${peerName} | failed after ${format(theirs.ms)} (${theirs.failed}) | | |`;
  }
  return `| ${operation} | ${format(mine.ms)} | ${bytes(mine.size)} | ${peerName} | ${format(theirs.ms)} | ${bytes(theirs.size)} | ${(theirs.ms / mine.ms).toFixed(2)}x |`;
});
const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
const context = `Node ${process.version}, ${cpu}, ${(await import('node:os')).cpus().length} cores; official server ${peerVersion}; ${runs} runs, medians. A speed-up under 1 means the peer is faster. Peak memory (VmHWM) after the search, grep and 10,000-file tree rows: mcpkit ${peakMemory.ours ?? '?'} MB, official ${peakMemory.peer ?? '?'} MB.`;
const table = `${header}\n${lines.join('\n')}\n\n${context}\n`;
process.stdout.write(`${table}`);

if (writeReadme) {
  const readme = here('./README.md');
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf('<!-- results -->');
  const end = text.indexOf('<!-- /results -->');
  if (start !== -1 && end !== -1) {
    writeFileSync(readme, `${text.slice(0, start)}<!-- results -->\n${table}${text.slice(end)}`);
    say('wrote the table into bench/filesystem/README.md');
  }
}
