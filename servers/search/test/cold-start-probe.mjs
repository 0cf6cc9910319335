// Run by cold-start.test.ts in a fresh process: serves the built server over a bare JSON-RPC transport and reports,
// at the moment the answer to tools/list is handed to the transport, whether the index file exists and which of the
// heavy modules are loaded; then whether a search works afterwards, and what it loaded. Usage: node cold-start-probe.mjs INDEX_FILE DIR
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const [indexFile, directory] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const heavy = /node_modules\/(undici|pg|better-sqlite3|linkedom|turndown|@mozilla\/readability)\//;
const loadedModules = () => [
  ...new Set(
    Object.keys(require.cache)
      .filter((path) => heavy.test(path))
      .map((path) => heavy.exec(path)[1]),
  ),
];

const { createSearchServer } = await import('../dist/server.js');
const server = createSearchServer({ directories: [directory], indexFile, watch: false, logLevel: 'emergency' });
const answers = new Map();
const report = {};
const transport = {
  async start() {},
  async send(message) {
    if (message.id === 2) report.atToolsList = { indexFileExists: existsSync(indexFile), modules: loadedModules() };
    answers.get(message.id)?.(message);
  },
  async close() {
    transport.onclose?.();
  },
};
const request = (id, method, params) =>
  new Promise((resolve) => {
    answers.set(id, resolve);
    transport.onmessage({ jsonrpc: '2.0', id, method, params });
  });

await server.connect(transport);
await request(1, 'initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'cold-start-probe', version: '1.0.0' },
});
transport.onmessage({ jsonrpc: '2.0', method: 'notifications/initialized' });
const listed = await request(2, 'tools/list', {});
report.tools = listed.result.tools.map((tool) => tool.name);
const searched = await request(3, 'tools/call', { name: 'search', arguments: { query: 'vacation policy', limit: 1 } });
report.search = searched.result.content[0].text;
report.indexFileExistsAfterSearch = existsSync(indexFile);
report.modulesAfterSearch = loadedModules().sort();
await server.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
