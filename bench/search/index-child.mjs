// Runs one indexing pass in its own process and prints its time and peak memory as JSON on stdout.
// Usage: node bench/search/index-child.mjs INDEX_FILE DIR
import { LocalIndex } from '@mcpkit/server-search';

const [indexFile, directory] = process.argv.slice(2);
const started = performance.now();
const index = new LocalIndex({ directories: [directory], indexFile });
const [report] = await index.refreshAll();
const ms = performance.now() - started;
await index.close();
console.log(JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, report }));
