// Runs one indexing pass in its own process and prints its wall time, CPU time and peak memory as JSON on stdout.
// Usage: node bench/search/index-child.mjs INDEX DIR [MODULE]
//   INDEX: an SQLite file, or a postgres:// URL; MODULE: another build's dist/index.js (a copy of an older dist/ beside
//   a package.json and a node_modules link), for a before/after in the same minutes.
// Also printed: the CPU time of the JavaScript threads (Linux: the main thread, then the index writer's two worker
// threads, busiest first: storing, then preparing), when the run started merging, from its progress, and the bytes
// the process wrote (Linux: the index file, its WAL and checkpoints; unlike CPU time, the same whatever the load).
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [location, directory, module] = process.argv.slice(2);
const { openSearchIndex } = await import(module ? pathToFileURL(module).href : '@mcpkit/server-search');

/**
 * CPU milliseconds of the main thread, then of the two busiest other threads named `node` (in a build, the index
 * writer's worker threads; V8's and libuv's helpers use far less).
 */
function javascriptThreads() {
  if (process.platform !== 'linux') return [];
  const threads = [];
  for (const id of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${id}/comm`, 'utf8').trim() !== 'node') continue;
      const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, in clock ticks of 10 ms.
      threads.push({ main: Number(id) === process.pid, cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {} // a thread that ended meanwhile
  }
  return threads
    .sort((one, other) => Number(other.main) - Number(one.main) || other.cpuMs - one.cpuMs)
    .slice(0, 3)
    .map((thread) => thread.cpuMs);
}

/** Bytes this process passed to write() so far (Linux), whatever the load: the file, its WAL and the checkpoints. */
function writtenBytes() {
  if (process.platform !== 'linux') return undefined;
  const line = readFileSync('/proc/self/io', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('wchar:'));
  return line === undefined ? undefined : Number(line.slice('wchar:'.length));
}

const writtenBefore = writtenBytes();
const started = performance.now();
const cpuBefore = process.cpuUsage();
const index = openSearchIndex({
  directories: [directory],
  ...(location.startsWith('postgres') ? { indexUrl: location } : { indexFile: location }),
});
let mergingAtMs;
const [report] = await index.indexing.refreshAll({
  onProgress: (progress) => {
    if (progress.phase === 'merging') mergingAtMs ??= performance.now() - started;
  },
});
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const threadsCpuMs = javascriptThreads();
const writtenAfter = writtenBytes();
await index.close();
console.log(
  JSON.stringify({
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    threadsCpuMs,
    mergingAtMs,
    writtenBytes: writtenAfter === undefined ? undefined : writtenAfter - writtenBefore,
    report,
  }),
);
