// Runs one indexing pass in its own process and prints its wall time, CPU time and peak memory as JSON on stdout.
// Usage: node bench/search/index-child.mjs INDEX_FILE DIR
import { LocalIndex } from '@mcpkit/server-search';

const [indexFile, directory] = process.argv.slice(2);
const started = performance.now();
const cpuBefore = process.cpuUsage();
const index = new LocalIndex({ directories: [directory], indexFile });
const [report] = await index.refreshAll();
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
await index.close();
console.log(
  JSON.stringify({
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    report,
  }),
);
