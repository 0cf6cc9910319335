// Runs one indexing pass in its own process and prints its wall time, CPU time and peak memory as JSON on stdout.
// Usage: node bench/search/index-child.mjs INDEX DIR [MODULE]
//   INDEX: an SQLite file, or a postgres:// URL; MODULE: another build's dist/index.js (a copy of an older dist/ beside
//   a package.json and a node_modules link), for a before/after in the same minutes.
import { pathToFileURL } from 'node:url';

const [location, directory, module] = process.argv.slice(2);
const { openSearchIndex } = await import(module ? pathToFileURL(module).href : '@mcpkit/server-search');
const started = performance.now();
const cpuBefore = process.cpuUsage();
const index = openSearchIndex({
  directories: [directory],
  ...(location.startsWith('postgres') ? { indexUrl: location } : { indexFile: location }),
});
const [report] = await index.indexing.refreshAll();
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
