#!/usr/bin/env node
// Filesystem benchmark, small operations: mcpkit-filesystem vs the official @modelcontextprotocol/server-filesystem on
// the calls a model makes most (read a file, read 20 files, list a folder of 1,000 entries, file info) and cold start
// (spawn to tools/list answered). Both servers are real stdio child processes driven by the SDK client, measured in
// alternating rounds so that load from elsewhere falls on both; medians, and the ratio mcpkit / official (under 1.00x
// means mcpkit is faster). Cold start has a floor too: a bare SDK 2.x server listing the same tools
// (bare-sdk-server.mjs), started in the same rounds.
//
//   node bench/filesystem/small-ops.mjs [--rounds N] [--write]   (build first: npx turbo run build --filter=@mcpkit/server-filesystem)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { markdownTable } from '../markdown-table.mjs';
import { median } from '../measures.mjs';
import { officialServerEntry, officialServerVersion } from './official-server.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 15;
const write = process.argv.includes('--write');
const ourBin = here('../../servers/filesystem/bin/mcpkit-filesystem.js');
const bareServer = here('./bare-sdk-server.mjs');
const toolsFile = here('../.data/filesystem-tools.json');
const folder = here('../.data/filesystem-small');
const say = (line) => process.stderr.write(`${line}\n`);
const loadAtStart = loadavg()[0];

/** A folder of 1,000 small files (the listing rows) whose first 20 are the read rows' files. */
function makeFolder() {
  const marker = join(folder, 'wide', 'file-0999.txt');
  if (existsSync(marker)) return;
  mkdirSync(join(folder, 'wide'), { recursive: true });
  for (let index = 0; index < 1000; index++) {
    const name = `file-${String(index).padStart(4, '0')}.txt`;
    const lines = Array.from({ length: 40 }, (_, line) => `line ${line} of ${name}: ${'lorem ipsum '.repeat(4)}`);
    writeFileSync(join(folder, 'wide', name), `${lines.join('\n')}\n`);
  }
}

async function connect(args) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
  // The 2025-11-25 era, which both servers speak.
  const client = new Client({ name: 'mcpkit-bench', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  const started = performance.now();
  await client.connect(transport);
  await client.listTools();
  return { client, coldStartMs: performance.now() - started };
}

makeFolder();
const peerEntry = officialServerEntry();
const wide = join(folder, 'wide');
const twenty = Array.from({ length: 20 }, (_, index) => join(wide, `file-${String(index).padStart(4, '0')}.txt`));
const servers = { mcpkit: [ourBin, folder], official: [peerEntry, folder] };
// The bare server lists exactly what mcpkit lists.
{
  const { client } = await connect(servers.mcpkit);
  writeFileSync(toolsFile, JSON.stringify((await client.listTools()).tools));
  await client.close();
}
const coldStarters = { ...servers, bare: [bareServer, toolsFile] };
const operations = [
  ['read_text_file, one 2 KB file', 'read_text_file', { path: twenty[0] }],
  ['read_multiple_files, 20 files', 'read_multiple_files', { paths: twenty }],
  ['list_directory, 1,000 entries', 'list_directory', { path: wide }],
  ['list_directory_with_sizes, 1,000 entries', 'list_directory_with_sizes', { path: wide }],
  ['get_file_info', 'get_file_info', { path: twenty[0] }],
];
const callsPerRound = 20;

const samples = Object.fromEntries(Object.keys(coldStarters).map((name) => [name, { coldStart: [] }]));
for (let round = 0; round < rounds; round++) {
  // The order rotates, so no server always starts first (or last) in a round.
  const order = Object.entries(coldStarters);
  for (let turn = 0; turn < round % order.length; turn++) order.push(order.shift());
  for (const [name, args] of order) {
    const { client, coldStartMs } = await connect(args);
    samples[name].coldStart.push(coldStartMs);
    await client.close();
  }
}
const clients = {};
for (const [name, args] of Object.entries(servers)) {
  clients[name] = (await connect(args)).client;
  // Warm both: every operation a few times, so no row times a first call.
  for (const [, tool, args] of operations) {
    for (let index = 0; index < 5; index++) await clients[name].callTool({ name: tool, arguments: args });
  }
}
for (let round = 0; round < rounds; round++) {
  for (const [label, tool, args] of operations) {
    for (const name of Object.keys(servers)) {
      samples[name][label] ??= [];
      const times = samples[name][label];
      for (let index = 0; index < callsPerRound; index++) {
        const started = performance.now();
        const result = await clients[name].callTool({ name: tool, arguments: args });
        times.push(performance.now() - started);
        if (result.isError) throw new Error(`${name} ${tool} failed: ${JSON.stringify(result.content)}`);
      }
    }
  }
}
for (const client of Object.values(clients)) await client.close();

const ratio = (ours, theirs) => `${(ours / theirs).toFixed(2)}x`;
const rows = [...operations.map(([label]) => [label, label]), ['cold start (spawn to tools/list)', 'coldStart']].map(
  ([label, key]) => {
    const ours = median(samples.mcpkit[key]);
    const theirs = median(samples.official[key]);
    const floor = key === 'coldStart' ? median(samples.bare.coldStart) : undefined;
    const met = ours / theirs <= 1 && (floor === undefined || ours / floor <= 1.1);
    return [
      label,
      ours.toFixed(2),
      theirs.toFixed(2),
      ratio(ours, theirs),
      floor === undefined ? '' : floor.toFixed(2),
      floor === undefined ? '' : ratio(ours, floor),
      met ? 'met' : 'missed',
    ];
  },
);
const table = markdownTable(
  [
    'operation (median, ms)',
    'mcpkit',
    `official ${officialServerVersion()}`,
    'mcpkit / official',
    'floor: bare SDK server',
    'mcpkit / floor',
    'target (<= 1.00x official; cold start also <= 1.10x floor)',
  ],
  rows,
  [false, true, true, true, true, true, false],
).join('\n');
const context = `Node ${process.version}; ${rounds} rounds of ${callsPerRound} calls per operation and server, alternating, and ${rounds} cold starts each; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (2 cores).`;
process.stdout.write(`${table}\n\n${context}\n`);
if (write) {
  const readme = here('./README.md');
  const text = readFileSync(readme, 'utf8');
  const start = '<!-- small-ops -->';
  const end = '<!-- /small-ops -->';
  if (!text.includes(start) || !text.includes(end)) throw new Error(`${readme} has no ${start} ... ${end} markers`);
  writeFileSync(
    readme,
    `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n\n${context}\n${text.slice(text.indexOf(end))}`,
  );
  say('wrote the table into bench/filesystem/README.md');
}
