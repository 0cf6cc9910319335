#!/usr/bin/env node
// Filesystem benchmark: mcpkit-filesystem vs the official @modelcontextprotocol/server-filesystem (and ripgrep/find
// as the floor), side by side in one run, on the generated 100,000-file tree. Both servers run as real stdio child
// processes driven by the official SDK client; times are wall-clock per tool call, medians of several runs.
//
//   node bench/filesystem/run.mjs [--runs N] [--write]   (build first: npx turbo run build --filter=@mcpkit/server-filesystem)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { median } from '../measures.mjs';
import { writeResultsIntoReadme } from '../readme-results.mjs';
import { generateTree } from './generate-tree.mjs';
import { officialServerEntry, officialServerVersion } from './official-server.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const writeReadme = process.argv.includes('--write');
const ourBin = here('../../servers/filesystem/bin/mcpkit-filesystem.js');
const say = (line) => process.stderr.write(`${line}\n`);

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
  // The official server answers directory_tree of the whole tree with one 24 MB message, over the SDK client's
  // default 10 MB stdio buffer: allow 64 MB so the bench can time it (a default client drops the connection).
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: 'pipe',
    maxBufferSize: 64 * 1024 * 1024,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  transport.onclose = () => say(`${name} server exited; its last stderr:\n${stderr}`);
  // The 2025-11-25 era, which both servers speak (the official one knows no other).
  const client = new Client({ name: 'mcpkit-bench', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(transport);
  return { name, client, pid: transport.pid };
}

/** A probe: one call of a tool on a server, returning what it answered. */
const tool = (server, name, args) => async () => {
  const result = await server.client.callTool({ name, arguments: args }, { timeout: 600_000 });
  const text = result.content.map((block) => block.text ?? '').join('\n');
  if (result.isError) throw new Error(`${server.name} ${name} failed: ${text}`);
  return text;
};

/** A probe: one run of a command, returning its output. */
const command = (file, args) => async () => spawnSync(file, args, { maxBuffer: 1 << 30 }).stdout.toString();

/**
 * Times probes side by side: each round runs every probe once, in turn, so a change in the shared machine's load
 * hits all of them alike. Returns the median time, the answer's size and the answer of each probe.
 */
async function measure(label, times, probes) {
  say(`  ${label}`);
  const durations = probes.map(() => []);
  const answers = probes.map(() => '');
  for (let run = 0; run < times; run++) {
    for (const [index, probe] of probes.entries()) {
      const started = performance.now();
      answers[index] = await probe();
      durations[index].push(performance.now() - started);
    }
  }
  return probes.map((_, index) => ({
    ms: median(durations[index]),
    size: Buffer.byteLength(answers[index]),
    sample: answers[index],
  }));
}

const format = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`);
const bytes = (size) =>
  size >= 1024 * 1024
    ? `${(size / 1024 / 1024).toFixed(1)} MB`
    : size >= 1024
      ? `${(size / 1024).toFixed(0)} KB`
      : `${size} B`;

const tree = generateTree();
const peerEntry = officialServerEntry();
const ripgrep = ensureRipgrep();
const peerVersion = officialServerVersion();
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

say(`tree: ${tree}; ${runs} rounds per measurement`);

// Warm the page cache, both processes and our grep workers once.
await measure('warm-up', 1, [
  tool(ours, 'search_files', { path: tree, pattern: target }),
  tool(peer, 'search_files', { path: tree, pattern: `**/${target}` }),
  tool(ours, 'grep', { path: tree, pattern: 'zanzibar' }),
]);

{
  const [mine, theirs, find] = await measure('search_files', runs, [
    tool(ours, 'search_files', { path: tree, pattern: target }),
    tool(peer, 'search_files', { path: tree, pattern: `**/${target}` }),
    command('find', [tree, '-name', target]),
  ]);
  if (!mine.sample.includes(target) || !theirs.sample.includes(target)) throw new Error('search_files missed the file');
  rows.push(['search_files, one name in 100,000 files', mine, 'official server', theirs]);
  rows.push(['search_files (same)', mine, '`find -name`', find]);
}
if (ripgrep) {
  const [mine, rg, mineRegex, rgRegex] = await measure('grep', runs, [
    tool(ours, 'grep', { path: tree, pattern: 'zanzibar', maxMatches: 1000 }),
    command('rg', ['-n', 'zanzibar', tree]),
    tool(ours, 'grep', { path: tree, pattern: 'zanz[a-z]+ needle', maxMatches: 1000 }),
    command('rg', ['-n', 'zanz[a-z]+ needle', tree]),
  ]);
  for (const answer of [mine, mineRegex]) {
    if (!answer.sample.includes('100 matching lines')) throw new Error(`grep miscounted: ${answer.sample.slice(-200)}`);
  }
  rows.push(['grep, a word in 100,000 files (literal)', mine, '`rg -n`', rg]);
  rows.push(['grep, a regular expression', mineRegex, '`rg -n`', rgRegex]);
}
{
  const part = `${tree}/module-0`;
  const [mine, theirs] = await measure('directory_tree of 10,000 files', runs, [
    tool(ours, 'directory_tree', { path: part }),
    tool(peer, 'directory_tree', { path: part }),
  ]);
  rows.push(['directory_tree of 10,000 files (first page, JSON)', mine, 'official server (everything)', theirs]);
}
{
  const [mine, mineCompact] = await measure('directory_tree of 100,000 files', runs, [
    tool(ours, 'directory_tree', { path: tree }),
    tool(ours, 'directory_tree', { path: tree, format: 'compact' }),
  ]);
  rows.push(['directory_tree of 100,000 files (first page, JSON)', mine]);
  rows.push(['directory_tree of 100,000 files (first page, compact)', mineCompact]);
  peakMemory = { ours: highWater(ours.pid), peer: highWater(peer.pid) };
  // The official server answers with the whole tree at once; on this tree that may take long or fail.
  const started = performance.now();
  try {
    const [theirs] = await measure('official directory_tree of 100,000 files', 1, [
      tool(peer, 'directory_tree', { path: tree }),
    ]);
    rows[rows.length - 2].push("official server (everything, 1 run; over a default client's 10 MB limit)", theirs);
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
const context = `Node ${process.version}, ${cpu}, ${(await import('node:os')).cpus().length} cores; official server ${peerVersion}; ${runs} rounds, each running every probe of a row group in turn; medians. A speed-up under 1 means the peer is faster. Peak memory (VmHWM) after the search, grep and 10,000-file tree rows: mcpkit ${peakMemory.ours ?? '?'} MB, official ${peakMemory.peer ?? '?'} MB.`;
const table = `${header}\n${lines.join('\n')}\n\n${context}\n`;
process.stdout.write(`${table}`);

if (writeReadme) {
  writeResultsIntoReadme(here('./README.md'), table, { start: '<!-- results -->', end: '<!-- /results -->' });
  say('wrote the table into bench/filesystem/README.md');
}
