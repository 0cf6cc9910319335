#!/usr/bin/env node
// Kit vs raw SDK 2.x over stdio, in both protocol eras: median per-call latency of a trivial tool (sequential and
// 64-way concurrent) and cold start (spawn to the first tools/call answered, the handshake included in 2025-11-25). Both servers run side by side in one run, in alternating rounds, so that machine load affects both
// alike. Prints a Markdown table with medians and the kit/SDK ratio.
//   node bench/kit/run.mjs [--quick] [--write]   (--write puts the table into bench/kit/README.md)
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { markdownTable } from '../markdown-table.mjs';
import { cpuMilliseconds, median } from '../measures.mjs';
import { writeResultsIntoReadme } from '../readme-results.mjs';

const loadAtStart = loadavg()[0];
const quick = process.argv.includes('--quick');
const write = process.argv.includes('--write');
// Many short alternating rounds rather than a few long ones: a burst of load from elsewhere then lands on both.
const rounds = quick ? 4 : 24;
const sequentialCalls = quick ? 100 : 250;
const concurrentBatches = quick ? 4 : 8;
const concurrency = 64;
const coldStarts = quick ? 3 : 15;
const eras = ['2025-11-25', '2026-07-28'];

const servers = {
  kit: fileURLToPath(new URL('./servers/kit-server.mjs', import.meta.url)),
  sdk: fileURLToPath(new URL('./servers/sdk-server.mjs', import.meta.url)),
};

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function connect(entry, era) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry], stderr: 'ignore' });
  // Each era pinned, so that no probe or fallback is timed.
  const versionNegotiation = { mode: era === '2025-11-25' ? 'legacy' : { pin: era } };
  const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation });
  const started = performance.now();
  await client.connect(transport);
  // The first call answered: a modern client pinned to its revision sends nothing on connect.
  await call(client, 0);
  const coldStartMs = performance.now() - started;
  return { client, pid: transport.pid, coldStartMs, coldStartCpuMs: cpuMilliseconds(transport.pid) };
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

// results[era][server] holds the samples of one server in one era.
const results = {};
for (const era of eras) {
  results[era] = {};
  for (const name of Object.keys(servers)) {
    results[era][name] = { sequential: [], concurrent: [], callCpu: [], coldStart: [], coldStartCpu: [] };
  }
}

// Cold start: fresh processes, alternating servers and eras.
for (let index = 0; index < coldStarts; index += 1) {
  for (const era of eras) {
    for (const [name, entry] of Object.entries(servers)) {
      const { client, coldStartMs, coldStartCpuMs } = await connect(entry, era);
      results[era][name].coldStart.push(coldStartMs);
      if (coldStartCpuMs !== undefined) results[era][name].coldStartCpu.push(coldStartCpuMs);
      await client.close();
    }
  }
}

// Latency: one long-lived process per server and era, warmed up, measured in alternating rounds.
const clients = {};
for (const era of eras) {
  clients[era] = {};
  for (const [name, entry] of Object.entries(servers)) {
    clients[era][name] = await connect(entry, era);
    for (let index = 0; index < 300; index += 1) await call(clients[era][name].client, index);
  }
}
for (let round = 0; round < rounds; round += 1) {
  for (const era of eras) {
    for (const name of Object.keys(servers)) {
      const { client, pid } = clients[era][name];
      const cpuBefore = cpuMilliseconds(pid);
      await sequential(client, results[era][name].sequential);
      const cpuAfter = cpuMilliseconds(pid);
      // The server's own CPU time per call (in microseconds): what the machine's load cannot inflate.
      if (cpuBefore !== undefined && cpuAfter !== undefined) {
        results[era][name].callCpu.push(((cpuAfter - cpuBefore) * 1000) / sequentialCalls);
      }
      await concurrent(client, results[era][name].concurrent);
    }
  }
}
for (const era of eras) for (const { client } of Object.values(clients[era])) await client.close();

const measures = [
  ['per call, sequential', 'sequential', 3],
  [`per call, ${concurrency} concurrent`, 'concurrent', 2],
  ['server CPU per sequential call (µs, mean)', 'callCpu', 0],
  ['cold start (spawn to first call answered)', 'coldStart', 1],
  ['cold start, server CPU time', 'coldStartCpu', 0],
];
const lines = markdownTable(
  ['measure (median, ms)', 'era', 'kit', 'raw SDK 2.x', 'kit / SDK'],
  measures.flatMap(([label, key, digits]) =>
    eras
      .filter((era) => results[era].kit[key].length > 0)
      .map((era) => {
        // CPU time comes in 10 ms ticks, coarse for one round: the per-call row is the mean over every round.
        const average = key === 'callCpu' ? mean : median;
        const kit = average(results[era].kit[key]);
        const sdk = average(results[era].sdk[key]);
        return [label, era, kit.toFixed(digits), sdk.toFixed(digits), `${(kit / sdk).toFixed(2)}x`];
      }),
  ),
  [false, false, true, true, true],
);
const samples = `per era: ${rounds * sequentialCalls} sequential and ${rounds * concurrentBatches * concurrency} concurrent calls, ${coldStarts} cold starts per server; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (2 cores)`;
const table = `Node ${process.versions.node}, ${new Date().toISOString().slice(0, 10)}:\n\n${lines.join('\n')}\n\n${samples}.`;
process.stdout.write(`\n## kit: server-kit vs raw SDK 2.x McpServer over stdio, both eras\n\n${table}\n`);
if (write) {
  const readme = fileURLToPath(new URL('./README.md', import.meta.url));
  writeResultsIntoReadme(readme, `${table}\n`, { start: '<!-- results:start -->', end: '<!-- results:end -->' });
  process.stderr.write(`wrote the table into ${readme}\n`);
}
