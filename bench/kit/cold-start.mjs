#!/usr/bin/env node
// Cold start of kit servers next to bare SDK servers listing the same tools (issue 21: at most 1.10x): a fresh
// process per sample, spawn to the answer of the first tools/list (initialize and initialized sent as raw JSON lines,
// 2025-11-25), the server's CPU time at that answer (all threads, in microseconds: `process.cpuUsage()` taken by a
// preloaded module when the server writes the answer to stdout, and written to stderr; /proc's clock ticks of 10 ms
// were too coarse for ratios a few points apart). Four pairs: the kit's echo server against the raw SDK's (this
// bench's servers/), mcpkit-search, mcpkit-database and mcpkit-filesystem each against
// bench/filesystem/bare-sdk-server.mjs given its own tools/list. Every server of every pair runs once per round, a
// pair's servers back to back (which goes first takes turns), after one warm-up round. `--build NAME=DIR`
// (repeatable) adds the same servers from another build laid out like the workspace
// (DIR/bench/kit/servers/kit-server.mjs, DIR/servers/<name>/bin/..., those present), e.g. a copy of an earlier build
// with its own node_modules links, measured in the same rounds.
//   node bench/kit/cold-start.mjs [--rounds N] [--build NAME=DIR]... [--only echo,search,database,filesystem]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { median } from '../measures.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    build: { type: 'string', multiple: true, default: [] },
    only: { type: 'string', default: 'echo,search,database,filesystem' },
  },
});
const rounds = Number(values.rounds);
const only = new Set(values.only.split(','));
const root = fileURLToPath(new URL('../../', import.meta.url));
const bareSdkServer = join(root, 'bench/filesystem/bare-sdk-server.mjs');

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cold-start', version: '1' } },
};
const lines = [
  initialize,
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((message) => `${JSON.stringify(message)}\n`)
  .join('');

/** Preloaded into every server: its CPU time when it writes the answer to tools/list (id 2), on stderr. */
const cpuAtAnswer = `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('"id":2')) {
    const { user, system } = process.cpuUsage();
    process.stderr.write('cpu-at-answer ' + (user + system) + '\\n');
  }
  return write(chunk, ...rest);
};`;
const preload = ['--import', `data:text/javascript,${encodeURIComponent(cpuAtAnswer)}`];

/** Spawns `node ...args`, sends the handshake and tools/list at once, resolves at the list's answer. */
function coldStartOnce(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...preload, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let done = false;
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!done) reject(new Error(`${args.join(' ')} exited with ${code} before answering tools/list`));
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk.toString('utf8');
      let end = stdout.indexOf('\n');
      while (end !== -1 && !done) {
        const message = JSON.parse(stdout.slice(0, end));
        stdout = stdout.slice(end + 1);
        end = stdout.indexOf('\n');
        if (message.id !== 2) continue;
        const ms = performance.now() - started;
        done = true;
        child.stdin.end();
        child.once('exit', () => {
          const cpu = /^cpu-at-answer (\d+)$/m.exec(stderr);
          if (!cpu)
            reject(new Error(`${args.join(' ')} answered without its CPU time on stderr: ${stderr.slice(-500)}`));
          else resolve({ ms, cpuMs: Number(cpu[1]) / 1000, tools: message.result.tools });
        });
        setTimeout(() => child.kill(), 5000).unref();
      }
    });
    child.stdin.write(lines);
  });
}

const workspace = mkdtempSync(join(tmpdir(), 'kit-cold-start-'));
const corpus = join(workspace, 'docs');
mkdirSync(corpus);
for (let file = 0; file < 20; file += 1) writeFileSync(join(corpus, `note-${file}.md`), `# Note ${file}\n\nText.\n`);
const sqliteFile = join(workspace, 'shop.sqlite');
const database = new Database(sqliteFile);
database.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items (name) VALUES (1), (2);');
database.close();

/** The servers of each pair as built in `base` (the workspace, or a copy of an earlier build); `index` names its own index file. */
function builds(base, label, index) {
  const search = join(base, 'servers/search/bin/mcpkit-search.js');
  const databaseBin = join(base, 'servers/database/bin/mcpkit-database.js');
  const filesystemBin = join(base, 'servers/filesystem/bin/mcpkit-filesystem.js');
  const kitEcho = join(base, 'bench/kit/servers/kit-server.mjs');
  return [
    { pair: 'echo', name: `kit echo${label}`, args: [kitEcho] },
    {
      pair: 'search',
      name: `mcpkit-search${label}`,
      args: [
        search,
        '--index-file',
        join(workspace, `index-${index}.sqlite`),
        '--no-watch',
        '--log-level',
        'error',
        corpus,
      ],
    },
    { pair: 'database', name: `mcpkit-database${label}`, args: [databaseBin, sqliteFile, '--log-level', 'emergency'] },
    { pair: 'filesystem', name: `mcpkit-filesystem${label}`, args: [filesystemBin, '--log-level', 'error', corpus] },
  ].filter((server) => existsSync(server.args[0]));
}

try {
  const kits = [
    ...builds(root, '', 0),
    ...values.build.flatMap((build, position) => {
      const [name, directory] = build.split('=');
      return builds(directory, ` (${name})`, position + 1);
    }),
  ];
  // Each bare SDK server lists exactly what its kit server lists: its tools, read from one start of the kit server.
  const servers = [
    { pair: 'echo', name: 'raw SDK echo', args: [join(root, 'bench/kit/servers/sdk-server.mjs')], floor: true },
  ];
  for (const pair of ['search', 'database', 'filesystem']) {
    const kit = kits.find((server) => server.pair === pair);
    if (!kit || !only.has(pair)) continue;
    const toolsFile = join(workspace, `${pair}-tools.json`);
    writeFileSync(toolsFile, JSON.stringify((await coldStartOnce(kit.args)).tools));
    servers.push({ pair, name: `bare SDK, ${pair}'s tools`, args: [bareSdkServer, toolsFile], floor: true });
  }
  servers.push(...kits);
  const measured = servers.filter((server) => only.has(server.pair));
  const samples = measured.map(() => ({ ms: [], cpuMs: [] }));
  const loadAtStart = loadavg()[0];
  // A round runs each pair's servers next to each other: its floor and its kit servers back to back, the one that goes
  // first taking turns from round to round, and the pairs themselves in a rotating order.
  const groups = ['echo', 'search', 'database', 'filesystem']
    .map((pair) => measured.flatMap((server, index) => (server.pair === pair ? [index] : [])))
    .filter((group) => group.length > 0);
  const roundOrder = (round) =>
    groups.flatMap((_, position) => {
      const group = groups[(position + round) % groups.length];
      const first = round % group.length;
      return [...group.slice(first), ...group.slice(0, first)];
    });
  for (let round = -1; round < rounds; round += 1) {
    for (const index of roundOrder(Math.max(round, 0))) {
      const sample = await coldStartOnce(measured[index].args);
      if (round < 0) continue;
      samples[index].ms.push(sample.ms);
      samples[index].cpuMs.push(sample.cpuMs);
    }
  }
  const loadAtEnd = loadavg()[0];
  // Two statistics per server: the ratio of the medians, and the paired one, the median over rounds of this server's
  // sample divided by its floor's sample of the same round. The rounds are seconds apart and the load changes between
  // them; a server and its floor ran back to back in each round, so their quotient cancels most of what the load did.
  console.log('| server | wall (ms) | / bare SDK | paired | server CPU (ms) | / bare SDK | paired |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const paired = (values, floors) => median(values.map((value, round) => value / floors[round]));
  for (const pair of ['echo', 'search', 'database', 'filesystem']) {
    const floorIndex = measured.findIndex((server) => server.pair === pair && server.floor);
    if (floorIndex === -1) continue;
    const floor = samples[floorIndex];
    const floorMs = median(floor.ms);
    const floorCpu = median(floor.cpuMs);
    measured.forEach((server, index) => {
      if (server.pair !== pair) return;
      const { ms: allMs, cpuMs: allCpu } = samples[index];
      const ms = median(allMs);
      const cpu = median(allCpu);
      const cells = server.floor
        ? ['', '']
        : [`${paired(allMs, floor.ms).toFixed(2)}x`, `${paired(allCpu, floor.cpuMs).toFixed(2)}x`];
      console.log(
        `| ${server.name} | ${ms.toFixed(1)} | ${(ms / floorMs).toFixed(2)}x | ${cells[0]} | ${cpu.toFixed(1)} | ${(cpu / floorCpu).toFixed(2)}x | ${cells[1]} |`,
      );
    });
  }
  console.log(
    `\n${rounds} rounds, each pair's servers back to back in turns, medians; paired: the median over rounds of the server's sample / its floor's in the same round; Node ${process.version}; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end (2 cores).`,
  );
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
