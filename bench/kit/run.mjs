#!/usr/bin/env node
// Kit vs raw SDK over stdio: median per-call latency of a trivial tool (sequential and 64-way concurrent) and cold
// start (spawn to initialize answered). Both servers run side by side in one run, in alternating rounds, so that
// machine load affects both alike. Prints a Markdown table with medians and the kit/SDK ratio.
//   node bench/kit/run.mjs [--quick] [--write]   (--write puts the table into bench/kit/README.md)
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const loadAtStart = loadavg()[0];
const quick = process.argv.includes('--quick');
const write = process.argv.includes('--write');
// Many short alternating rounds rather than a few long ones: a burst of load from elsewhere then lands on both.
const rounds = quick ? 4 : 24;
const sequentialCalls = quick ? 100 : 250;
const concurrentBatches = quick ? 4 : 8;
const concurrency = 64;
const coldStarts = quick ? 3 : 15;

const servers = {
  kit: fileURLToPath(new URL('./servers/kit-server.mjs', import.meta.url)),
  sdk: fileURLToPath(new URL('./servers/sdk-server.mjs', import.meta.url)),
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** CPU time (user + system, all threads) a process has used, in ms; undefined where /proc is missing. */
function cpuMilliseconds(pid) {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

async function connect(entry) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry], stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const started = performance.now();
  await client.connect(transport);
  const coldStartMs = performance.now() - started;
  return { client, coldStartMs, coldStartCpuMs: cpuMilliseconds(transport.pid) };
}

const call = (client, index) => client.callTool({ name: 'echo', arguments: { text: `call ${index}` } });

async function sequential(client, samples) {
  for (let index = 0; index < sequentialCalls; index += 1) {
    const started = performance.now();
    await call(client, index);
    samples.push(performance.now() - started);
  }
}

async function concurrent(client, samples) {
  for (let batch = 0; batch < concurrentBatches; batch += 1) {
    await Promise.all(
      Array.from({ length: concurrency }, async (_, index) => {
        const started = performance.now();
        await call(client, index);
        samples.push(performance.now() - started);
      }),
    );
  }
}

const results = {};
for (const name of Object.keys(servers)) {
  results[name] = { sequential: [], concurrent: [], coldStart: [], coldStartCpu: [] };
}

// Cold start: fresh processes, alternating.
for (let index = 0; index < coldStarts; index += 1) {
  for (const [name, entry] of Object.entries(servers)) {
    const { client, coldStartMs, coldStartCpuMs } = await connect(entry);
    results[name].coldStart.push(coldStartMs);
    if (coldStartCpuMs !== undefined) results[name].coldStartCpu.push(coldStartCpuMs);
    await client.close();
  }
}

// Latency: one long-lived process each, warmed up, measured in alternating rounds.
const clients = {};
for (const [name, entry] of Object.entries(servers)) {
  clients[name] = (await connect(entry)).client;
  for (let index = 0; index < 300; index += 1) await call(clients[name], index);
}
for (let round = 0; round < rounds; round += 1) {
  for (const name of Object.keys(servers)) {
    await sequential(clients[name], results[name].sequential);
    await concurrent(clients[name], results[name].concurrent);
  }
}
for (const client of Object.values(clients)) await client.close();

const rows = [
  ['per call, sequential', 'sequential', 3],
  [`per call, ${concurrency} concurrent`, 'concurrent', 2],
  ['cold start (spawn to initialize answered)', 'coldStart', 1],
  ['cold start, CPU time of the server process', 'coldStartCpu', 0],
].filter(([, key]) => results.kit[key].length > 0);
/** A Markdown table laid out the way the repository's formatter (Biome) lays it out, so that --write leaves it clean. */
function markdownTable(header, rows, rightAligned) {
  const widths = header.map((cell, column) => Math.max(3, cell.length, ...rows.map((row) => row[column].length)));
  const line = (cells) =>
    `| ${cells.map((cell, column) => (rightAligned[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join(' | ')} |`;
  const rule = widths.map((width, column) => (rightAligned[column] ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width)));
  return [line(header), `| ${rule.join(' | ')} |`, ...rows.map(line)];
}

const lines = markdownTable(
  ['measure (median, ms)', 'kit', 'raw SDK', 'kit / SDK'],
  rows.map(([label, key, digits]) => {
    const kit = median(results.kit[key]);
    const sdk = median(results.sdk[key]);
    return [label, kit.toFixed(digits), sdk.toFixed(digits), `${(kit / sdk).toFixed(2)}x`];
  }),
  [false, true, true, true],
);
const samples = `${rounds * sequentialCalls} sequential and ${rounds * concurrentBatches * concurrency} concurrent calls, ${coldStarts} cold starts per server; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (2 cores)`;
const table = `Node ${process.versions.node}, ${new Date().toISOString().slice(0, 10)}:\n\n${lines.join('\n')}\n\n${samples}.`;
process.stdout.write(`\n## kit: server-kit vs raw SDK McpServer over stdio\n\n${table}\n`);
if (write) {
  const readme = fileURLToPath(new URL('./README.md', import.meta.url));
  const text = readFileSync(readme, 'utf8');
  const start = '<!-- results:start -->';
  const end = '<!-- results:end -->';
  if (!text.includes(start) || !text.includes(end)) throw new Error(`${readme} has no ${start} ... ${end} markers`);
  writeFileSync(
    readme,
    `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`,
  );
  process.stderr.write(`wrote the table into ${readme}\n`);
}
