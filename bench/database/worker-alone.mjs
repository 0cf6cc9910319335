#!/usr/bin/env node
// One SQLite worker process of mcpkit-database driven alone, as the server drives it: the worker entry of a build's
// dist/ started with the server's flags, the bench's 1M-row file opened, and `render_query` requests sent over its
// file descriptor 3 (a 4-byte length, then the value in V8's serialization: worker-protocol.ts), one at a time, with a
// pause after each answer so that the worker is woken from its blocking read for every request, as in the bench.
// Prints the round trip (median), the worker's CPU per request from /proc (user and system), and with --memory its
// resident anonymous memory every 500 requests and after a 9 MB request (the worker then collects twice). Without
// the server and the client, the worker's own cost can be compared between builds or Node flags, alternating runs.
//   node bench/database/worker-alone.mjs [--dist servers/database/dist] [--calls 3000] [--op point|limit]
//     [--pause-ms 0.5] [--flags "--max-semi-space-size=1"] [--memory] [--cpu-prof DIRECTORY]
// The database file is the one bench/database/run.mjs generates (bench/.data/database-1m.sqlite): run it first.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deserialize, serialize } from 'node:v8';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: fileURLToPath(new URL('../../servers/database/dist', import.meta.url)) },
    calls: { type: 'string', default: '3000' },
    op: { type: 'string', default: 'point' },
    'pause-ms': { type: 'string', default: '0.5' },
    flags: { type: 'string', default: '' },
    memory: { type: 'boolean' },
    'cpu-prof': { type: 'string' },
  },
});
const file = fileURLToPath(new URL('../.data/database-1m.sqlite', import.meta.url));
if (!existsSync(file)) throw new Error(`${file} is missing: run bench/database/run.mjs once to generate it.`);
const calls = Number(values.calls);
const pauseMs = Number(values['pause-ms']);

// The server's worker flags (worker-process.ts, 512 MB of memory), then the ones asked for.
const args = [
  '--max-old-space-size=384',
  '--expose-gc',
  ...values.flags.split(' ').filter(Boolean),
  ...(values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${values['cpu-prof']}`] : []),
  join(values.dist, 'engines', 'sqlite', 'sqlite-process.js'),
];
const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
const channel = child.stdio[3];

/** A message as the server frames it: its length, then V8's serialization (header and value). */
function frame(message) {
  const body = serialize(message);
  const framed = Buffer.allocUnsafe(4 + body.length);
  framed.writeUInt32BE(body.length, 0);
  body.copy(framed, 4);
  return framed;
}
let received = Buffer.alloc(0);
let waiting;
channel.on('data', (chunk) => {
  received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
  while (received.length >= 4) {
    const end = 4 + received.readUInt32BE(0);
    if (end > received.length) break;
    const reply = deserialize(received.subarray(4, end));
    received = received.subarray(end);
    waiting(reply);
  }
});
let nextId = 1;
async function ask(body) {
  const reply = await new Promise((resolve) => {
    waiting = resolve;
    channel.write(frame({ ...body, id: nextId++ }));
  });
  if (!reply.ok) throw new Error(reply.message);
  return reply.value;
}

function status() {
  const text = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/^RssAnon:\s+(\d+)/m.exec(text)?.[1] ?? Number.NaN);
}
/** The worker's user and system CPU in ms (clock ticks of 10 ms). */
function cpu() {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

const sql = (index) =>
  values.op === 'limit'
    ? 'SELECT * FROM events LIMIT 500'
    : `SELECT * FROM events WHERE id = ${1 + ((index * 104_729) % 1_000_000)}`;
const query = (index) => ({
  op: 'render_query',
  query: { sql: sql(index), maxRows: 500 },
  render: { budget: 400_000, maxRows: 500 },
});
await ask({
  op: 'open',
  options: { file, writable: false, cellChars: 2000, byteBudget: 60_000, countLimit: 10_000, countTimeMs: 2500 },
});
for (let index = 0; index < 200; index += 1) await ask(query(index)); // warm up

const memory = [['calls 0', status()]];
const before = cpu();
const samples = [];
for (let index = 0; index < calls; index += 1) {
  const started = performance.now();
  await ask(query(index));
  samples.push(performance.now() - started);
  // The pause: one turn of this event loop, then a spin, so that the worker waits in its blocking read each time.
  await new Promise((resolve) => setImmediate(resolve));
  const until = performance.now() + pauseMs;
  while (performance.now() < until);
  if (values.memory && (index + 1) % 500 === 0) memory.push([`calls ${index + 1}`, status()]);
}
const after = cpu();
samples.sort((a, b) => a - b);
const perCall = (ms) => (ms / calls).toFixed(3);
process.stdout.write(
  `${values.op}, ${calls} requests${values.flags ? ` (${values.flags})` : ''}: round trip median ${samples[calls >> 1].toFixed(3)} ms; worker CPU ${perCall(after.user + after.system - before.user - before.system)} ms a request (system ${perCall(after.system - before.system)})\n`,
);
if (values.memory) {
  await ask({
    op: 'render_query',
    query: { sql: 'SELECT length(?)', params: ['x'.repeat(9 * 1024 * 1024)], maxRows: 1 },
    render: { budget: 400_000, maxRows: 500 },
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  memory.push(['after a 9 MB request', status()]);
  process.stdout.write(`RssAnon (kB): ${memory.map(([label, kB]) => `${label}: ${kB}`).join(', ')}\n`);
}
channel.end();
await new Promise((resolve) => child.on('exit', resolve));
