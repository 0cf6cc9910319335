// Cold start of mcpkit-search next to a raw SDK server offering the same tools (bench/filesystem/bare-sdk-server.mjs
// given mcpkit-search's own tools/list, as the filesystem and database benches do): a fresh
// process per sample, spawn to the answer of the first tools/list (initialize and initialized included, 2025-11-25),
// the servers alternating. Used by run.mjs; alone: node bench/search/cold-start.mjs [--runs N] [--bin PATH]...
// (each --bin an mcpkit-search build, e.g. a copy of an older dist/ and bin/, measured in the same rounds).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cpuMilliseconds, median } from '../measures.mjs';

const bareSdkServer = fileURLToPath(new URL('../filesystem/bare-sdk-server.mjs', import.meta.url));
const defaultBin = fileURLToPath(new URL('../../servers/search/bin/mcpkit-search.js', import.meta.url));

/** Spawns one server, lists its tools, and returns the wall time to that answer and the server's CPU time by then. */
async function coldStartOnce(args, keepTools) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  const started = performance.now();
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ms = performance.now() - started;
  const cpuMs = cpuMilliseconds(transport.pid);
  await client.close();
  if (keepTools) writeFileSync(keepTools, JSON.stringify(tools));
  return { ms, cpuMs, tools: tools.length };
}

/**
 * Measures `runs` cold starts of each server, alternating: the SDK peer and each mcpkit-search build (`bins`) serving
 * `directory` with `indexFile`. Resolves with per-server medians of wall and CPU time.
 */
export async function measureColdStart({ directory, indexFile, runs = 15, bins = [defaultBin] }) {
  const mcpkit = bins.map((bin) => ({
    name: bins.length > 1 ? `mcpkit-search (${bin})` : 'mcpkit-search',
    args: [bin, '--index-file', indexFile, '--no-watch', '--log-level', 'error', directory],
  }));
  // The peer lists exactly what mcpkit-search lists: its tools, read from one start before the rounds.
  const toolsDirectory = mkdtempSync(join(tmpdir(), 'search-cold-start-tools-'));
  const toolsFile = join(toolsDirectory, 'tools.json');
  await coldStartOnce(mcpkit[0].args, toolsFile);
  const servers = [{ name: 'bare SDK server, same tools', args: [bareSdkServer, toolsFile] }, ...mcpkit];
  const samples = servers.map(() => ({ ms: [], cpuMs: [], tools: 0 }));
  try {
    // One warm-up round (file cache), then alternating rounds, each round in a rotated order.
    for (let round = -1; round < runs; round += 1) {
      for (let step = 0; step < servers.length; step += 1) {
        const index = (step + Math.max(round, 0)) % servers.length;
        const sample = await coldStartOnce(servers[index].args);
        if (round < 0) continue;
        samples[index].ms.push(sample.ms);
        if (sample.cpuMs !== undefined) samples[index].cpuMs.push(sample.cpuMs);
        samples[index].tools = sample.tools;
      }
    }
  } finally {
    rmSync(toolsDirectory, { recursive: true, force: true });
  }
  return servers.map((server, index) => ({
    name: server.name,
    tools: samples[index].tools,
    medianMs: median(samples[index].ms),
    medianCpuMs: samples[index].cpuMs.length > 0 ? median(samples[index].cpuMs) : undefined,
  }));
}

/** The Markdown rows of a cold-start measurement, each server's ratio to the SDK peer (the first). */
export function coldStartRows(results, runs) {
  const [peer] = results;
  return [
    `Cold start: spawn to the answer of the first tools/list (2025-11-25 handshake included), ${runs} fresh processes per server, alternating; median.`,
    '',
    '| server | tools | cold start | server CPU by then | ratio to the SDK server |',
    '|---|---:|---:|---:|---:|',
    ...results.map(
      (result) =>
        `| ${result.name} | ${result.tools} | ${result.medianMs.toFixed(0)} ms | ${result.medianCpuMs === undefined ? 'n/a' : `${result.medianCpuMs.toFixed(0)} ms`} | ${(result.medianMs / peer.medianMs).toFixed(2)}x |`,
    ),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string' }, bin: { type: 'string', multiple: true } } });
  const runs = Number(values.runs ?? 15);
  const workspace = mkdtempSync(join(tmpdir(), 'search-cold-start-'));
  try {
    const directory = join(workspace, 'docs');
    mkdirSync(directory);
    for (let file = 0; file < 20; file += 1)
      writeFileSync(join(directory, `note-${file}.md`), `# Note ${file}\n\nText.\n`);
    const results = await measureColdStart({
      directory,
      indexFile: join(workspace, 'index.sqlite'),
      runs,
      bins: values.bin ?? [defaultBin],
    });
    console.log(coldStartRows(results, runs).join('\n'));
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
