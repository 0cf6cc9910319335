// Full index builds of several builds of the search server, alternating, each in a fresh process on an empty file:
// wall, CPU and peak RSS per run, then medians. For before/after tables measured in the same minutes.
// Usage: node bench/search/build-ab.mjs --corpus DIR [--rounds 3] [--index FILE] NAME=MODULE ...
//   MODULE: a build's dist/index.js (a copy of an older dist/ beside its package.json and a node_modules link), or
//   "current" for this checkout's package. Index files go to the system's temporary folder. With --index, every run
//   re-indexes FILE, an index of DIR built before and left in place (the unchanged re-index; nothing is written).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { corpus: { type: 'string' }, rounds: { type: 'string' }, index: { type: 'string' } },
  allowPositionals: true,
});
if (!values.corpus || positionals.length === 0) throw new Error('usage: --corpus DIR [--rounds N] NAME=MODULE ...');
const builds = positionals.map((argument) => {
  const [name, module] = argument.split('=');
  return { name, module };
});
const results = new Map(builds.map(({ name }) => [name, []]));
const loads = [];
const median = (numbers) => {
  const sorted = [...numbers].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

for (let round = 0; round < Number(values.rounds ?? 3); round++) {
  // Alternate which build goes first, so a load change does not favour one.
  for (const { name, module } of round % 2 ? [...builds].reverse() : builds) {
    const file = values.index ?? join(tmpdir(), `mcpkit-search-build-ab-${name}.sqlite`);
    const clear = () => {
      if (!values.index) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    };
    clear();
    loads.push(loadavg()[0]);
    const child = join(import.meta.dirname, 'index-child.mjs');
    const output = execFileSync(
      process.execPath,
      [child, file, values.corpus, ...(module === 'current' ? [] : [module])],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      },
    );
    const run = JSON.parse(output.trim().split('\n').at(-1));
    results.get(name).push(run);
    loads.push(loadavg()[0]);
    const seconds = (ms) => (ms / 1000).toFixed(1);
    const [main, ...workers] = run.threadsCpuMs ?? [];
    const threads =
      main === undefined ? '' : `, threads: main ${seconds(main)} s, workers ${workers.map(seconds).join(' / ')} s`;
    const merge = run.mergingAtMs === undefined ? '' : `, merging from ${seconds(run.mergingAtMs)} s`;
    const written = run.writtenBytes === undefined ? '' : `, ${(run.writtenBytes / 1024 / 1024).toFixed(0)} MB written`;
    console.log(
      `${name}: ${(run.ms / 1000).toFixed(2)} s wall, ${(run.cpuMs / 1000).toFixed(2)} s CPU (the refresh itself ${(run.report.durationMs / 1000).toFixed(2)} s), peak RSS ${run.maxRssMb.toFixed(0)} MB${threads}${merge}${written}, ${run.report.added} added, ${run.report.unchanged} unchanged, load ${loadavg()[0].toFixed(1)}`,
    );
    clear();
  }
}
for (const [name, runs] of results) {
  // Per thread: the main thread, then the workers busiest first (in a build, the storing thread, then the preparing one).
  const threadMedians = [0, 1, 2]
    .map((position) => runs.map((run) => run.threadsCpuMs?.[position]).filter((cpuMs) => cpuMs !== undefined))
    .filter((values) => values.length > 0)
    .map((values) => (median(values) / 1000).toFixed(1));
  console.log(
    `${name} medians: ${(median(runs.map((run) => run.ms)) / 1000).toFixed(2)} s wall, ${(median(runs.map((run) => run.cpuMs)) / 1000).toFixed(2)} s CPU, peak RSS ${median(runs.map((run) => run.maxRssMb)).toFixed(0)} MB (max ${Math.max(...runs.map((run) => run.maxRssMb)).toFixed(0)})${threadMedians.length > 0 ? `, threads' CPU (main, workers) ${threadMedians.join(' / ')} s` : ''}`,
  );
}
console.log(`load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} on 2 shared cores`);
