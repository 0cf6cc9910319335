#!/usr/bin/env node
// Kit vs raw SDK 2.x over Streamable HTTP on loopback: answers per second and p99 latency of the echo tool at 1, 16
// and 64 connections, stateless (both protocol eras) and with a session (2025-11-25). The load generator (autocannon,
// bench/http/load.mjs) runs in its own process; kit and SDK servers run side by side and take turns in short
// alternating runs, so that load from elsewhere on the machine falls on both alike. Prints medians and kit/SDK ratios.
//   node bench/http/run.mjs [--quick] [--write] [--soak] [--only stateless|session]
//   --soak adds a 3-minute soak of each kit server (RSS sampled every 30 s); --write puts the tables into README.md.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { markdownTable } from '../markdown-table.mjs';
import { cpuMilliseconds, median } from '../measures.mjs';
import { writeResultsIntoReadme } from '../readme-results.mjs';

const loadAtStart = loadavg()[0];
const quick = process.argv.includes('--quick');
const write = process.argv.includes('--write');
const soak = process.argv.includes('--soak');
const rounds = quick ? 1 : 3;
const seconds = quick ? 2 : 6;
const connectionCounts = [1, 16, 64];
const soakSeconds = quick ? 20 : 180;

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const implementations = {
  kit: here('./servers/kit-server.mjs'),
  sdk: here('./servers/sdk-server.mjs'),
};
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex > 0 ? process.argv[onlyIndex + 1] : undefined;
const scenarios = [
  { label: 'stateless', era: '2026-07-28', mode: 'stateless' },
  { label: 'stateless', era: '2025-11-25', mode: 'stateless' },
  { label: 'session', era: '2025-11-25', mode: 'stateful' },
].filter((scenario) => only === undefined || scenario.label === only);

const expect = '"text":"bench"';
const clientInfo = { name: 'bench', version: '1.0.0' };
const baseHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A tools/call of echo as a client of the era sends it; autocannon puts a fresh id in place of `[<id>]`. */
function echoRequest(era, sessionId) {
  const params = { name: 'echo', arguments: { text: 'bench' } };
  if (era === '2026-07-28') {
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': era,
      'io.modelcontextprotocol/clientInfo': clientInfo,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
  }
  const headers = { ...baseHeaders, 'mcp-protocol-version': era };
  if (era === '2026-07-28') Object.assign(headers, { 'mcp-method': 'tools/call', 'mcp-name': 'echo' });
  if (sessionId) headers['mcp-session-id'] = sessionId;
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: '[<id>]', method: 'tools/call', params }) };
}

/** Resident set size of a process in MB, from /proc. */
function rssMegabytes(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** Starts a server and resolves with its process and endpoint URL (its first stdout line). */
async function start(entry, mode) {
  const child = spawn(process.execPath, [entry, ...(mode === 'stateless' ? ['--stateless'] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.trim());
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before listening`)));
  });
  return { child, url };
}

/** Opens a 2025-11-25 session (initialize, then initialized) and returns its id. */
async function openSession(url) {
  const response = await fetch(url, {
    method: 'POST',
    headers: baseHeaders,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo },
    }),
  });
  const sessionId = response.headers.get('mcp-session-id');
  await response.text();
  if (!sessionId) throw new Error(`${url}: initialize answered ${response.status} without a session id`);
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...baseHeaders, 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  return sessionId;
}

/** One request by hand, so that a server that answers with an error fails the run instead of being timed. */
async function check(url, { headers, body }) {
  const response = await fetch(url, { method: 'POST', headers, body: body.replace('"[<id>]"', '1') });
  const text = await response.text();
  if (!response.ok || !text.includes(expect)) throw new Error(`${url}: ${response.status} ${text.slice(0, 300)}`);
}

/** Runs the load generator in its own process and resolves with its result. */
function load(url, requests, connections, duration) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [here('./load.mjs'), JSON.stringify({ url, connections, seconds: duration, requests, expect })],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(text)) : reject(new Error(`load.mjs exited ${code}`)),
    );
  });
}

// One long-lived process per implementation and mode; a session opened per stateful server.
const targets = {};
for (const [name, entry] of Object.entries(implementations)) {
  for (const mode of ['stateless', 'stateful']) {
    const { child, url } = await start(entry, mode);
    const sessionId = mode === 'stateful' ? await openSession(url) : undefined;
    targets[`${name} ${mode}`] = { child, url, sessionId };
  }
}
const requestOf = (name, scenario) => {
  const target = targets[`${name} ${scenario.mode}`];
  return echoRequest(scenario.era, target.sessionId);
};
for (const scenario of scenarios) {
  for (const name of Object.keys(implementations)) {
    const target = targets[`${name} ${scenario.mode}`];
    await check(target.url, requestOf(name, scenario));
    // Warm-up: the JIT and the pools, not timed.
    await load(target.url, [requestOf(name, scenario)], 16, quick ? 1 : 2);
  }
}

// results[key][name] = [{ perSecond, p99, cpuPerAnswer }] with key = scenario + connections.
const results = {};
const failures = [];
for (let round = 0; round < rounds; round += 1) {
  for (const scenario of scenarios) {
    for (const connections of connectionCounts) {
      const key = `${scenario.label}|${scenario.era}|${connections}`;
      results[key] ??= { kit: [], sdk: [] };
      // Who goes first alternates, so that neither always runs right after the other's burst.
      const order = (round + connections) % 2 === 0 ? ['kit', 'sdk'] : ['sdk', 'kit'];
      for (const name of order) {
        const target = targets[`${name} ${scenario.mode}`];
        const cpuBefore = cpuMilliseconds(target.child.pid);
        const outcome = await load(target.url, [requestOf(name, scenario)], connections, seconds);
        const cpuAfter = cpuMilliseconds(target.child.pid);
        if (outcome.non2xx + outcome.errors + outcome.mismatches > 0) {
          failures.push(
            `${name} ${key}: ${outcome.non2xx} non-2xx, ${outcome.errors} errors, ${outcome.mismatches} wrong answers`,
          );
        }
        results[key][name].push({
          perSecond: outcome.perSecond,
          p99: outcome.p99,
          cpuPerAnswer: ((cpuAfter - cpuBefore) * 1000) / Math.max(1, outcome.answered),
        });
        process.stderr.write(
          `round ${round + 1}/${rounds} ${name.padEnd(3)} ${key.padEnd(28)} ${outcome.perSecond.toFixed(0).padStart(6)}/s p99 ${outcome.p99.toFixed(2)} ms\n`,
        );
      }
    }
  }
}

const rows = Object.entries(results).map(([key, { kit, sdk }]) => {
  const [label, era, connections] = key.split('|');
  const kitRate = median(kit.map((run) => run.perSecond));
  const sdkRate = median(sdk.map((run) => run.perSecond));
  const kitP99 = median(kit.map((run) => run.p99));
  const sdkP99 = median(sdk.map((run) => run.p99));
  const kitCpu = median(kit.map((run) => run.cpuPerAnswer));
  const sdkCpu = median(sdk.map((run) => run.cpuPerAnswer));
  return [
    label,
    era,
    connections,
    kitRate.toFixed(0),
    sdkRate.toFixed(0),
    `${(kitRate / sdkRate).toFixed(2)}x`,
    kitP99.toFixed(2),
    sdkP99.toFixed(2),
    `${(kitP99 / sdkP99).toFixed(2)}x`,
    kitCpu.toFixed(0),
    sdkCpu.toFixed(0),
    `${(kitCpu / sdkCpu).toFixed(2)}x`,
  ];
});
const lines = markdownTable(
  [
    'mode',
    'era',
    'connections',
    'kit req/s',
    'SDK req/s',
    'kit / SDK',
    'kit p99 ms',
    'SDK p99 ms',
    'kit / SDK',
    'kit CPU µs/req',
    'SDK CPU µs/req',
    'kit / SDK',
  ],
  rows,
  [false, false, true, true, true, true, true, true, true, true, true, true],
);
let table = `Node ${process.versions.node}, ${new Date().toISOString().slice(0, 10)}:\n\n${lines.join('\n')}\n\n`;
table += `medians of ${rounds} alternating ${seconds}-second runs per row and server; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (2 cores).`;
if (failures.length > 0) table += `\n\nFailed answers: ${failures.join('; ')}.`;

if (soak) {
  // Each kit server under steady load (16 connections), RSS sampled every 30 s; both eras in turn on the stateless one.
  const soakRows = [];
  for (const mode of ['stateless', 'stateful']) {
    const target = targets[`kit ${mode}`];
    const requests =
      mode === 'stateless'
        ? [echoRequest('2026-07-28'), echoRequest('2025-11-25')]
        : [echoRequest('2025-11-25', target.sessionId)];
    const samples = [rssMegabytes(target.child.pid)];
    const sampler = setInterval(() => samples.push(rssMegabytes(target.child.pid)), (soakSeconds * 1000) / 6);
    const outcome = await load(target.url, requests, 16, soakSeconds);
    clearInterval(sampler);
    samples.push(rssMegabytes(target.child.pid));
    soakRows.push([
      `kit ${mode === 'stateless' ? 'stateless, both eras' : 'session, 2025-11-25'}`,
      outcome.perSecond.toFixed(0),
      samples.map((value) => value.toFixed(0)).join(' → '),
      (samples.at(-1) - samples[1]).toFixed(1),
      String(outcome.non2xx + outcome.errors + outcome.mismatches),
    ]);
  }
  table += `\n\nSoak: ${soakSeconds} s at 16 connections per server, RSS (MB) before and every ${soakSeconds / 6} s:\n\n`;
  table += markdownTable(
    ['server', 'req/s', 'RSS MB over time', 'growth after the first sample under load (MB)', 'failed'],
    soakRows,
    [false, true, false, true, true],
  ).join('\n');
}

for (const { child } of Object.values(targets)) child.kill();
process.stdout.write(`\n## http: server-kit vs raw SDK 2.x over Streamable HTTP\n\n${table}\n`);
if (write) {
  const readme = here('./README.md');
  writeResultsIntoReadme(readme, `${table}\n`, { start: '<!-- results:start -->', end: '<!-- results:end -->' });
  process.stderr.write(`wrote the tables into ${readme}\n`);
}
if (failures.length > 0) {
  process.stderr.write(`${failures.join('\n')}\n`);
  process.exitCode = 1;
}
