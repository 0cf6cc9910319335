#!/usr/bin/env node
// Request size with many servers: the first model request's bytes and tokens when every tool schema is sent, and
// when the model gets search_tools instead (docs/host.md#tool-search). Twelve generated stdio servers with 400 tools
// (packages/agent-host/test/fixtures/many-tools), the scripted model recording the real request bodies of both wire
// formats. Also: what one search costs, and the second request (after a search) for comparison.
//   node bench/host/request-size.mjs
// Build first: npx turbo run build --filter=@mcpkit/agent-host...
import { fileURLToPath } from 'node:url';
import { connectHost, createAgent } from '@mcpkit/agent-host';
import { startScriptedModel } from '@mcpkit/agent-host/testing';
import { getEncoding } from 'js-tiktoken';

const fixtures = new URL('../../packages/agent-host/test/fixtures/many-tools/', import.meta.url);
const { catalog } = await import(new URL('catalog.mjs', fixtures).href);
const serverFile = fileURLToPath(new URL('server.mjs', fixtures));

// GPT-4o's tokenizer; Anthropic's own counts differ by some percent, so the ratio is the number to read.
const encoding = getEncoding('o200k_base');
const tokens = (text) => encoding.encode(text).length;
const bytes = (text) => Buffer.byteLength(text, 'utf8');
const number = (value) => value.toLocaleString('en-US');
const percent = (part, whole) => `${((100 * part) / whole).toFixed(1)}%`;

const servers = catalog().map(({ server }) => ({
  name: server,
  transport: { kind: 'stdio', command: process.execPath, args: [serverFile, server], env: {} },
  tools: {},
  callTimeoutMs: 60_000,
  startupTimeoutMs: 60_000,
  disabled: false,
}));
const started = performance.now();
const host = await connectHost({ servers }, { log: () => {} });
const connectMs = performance.now() - started;
if (host.failures.length > 0) throw new Error(`servers failed: ${JSON.stringify(host.failures)}`);

const question = 'Refund charge ch_42 of account acct_1: the customer was charged twice.';
const script = [{ toolCalls: [{ name: 'search_tools', arguments: { query: 'refund a charge' } }] }, { text: 'done' }];

/** The request bodies of one run, as JSON text: the first, and the second (after the search) when there is one. */
async function requests(provider, toolSearch) {
  const scripted = await startScriptedModel(toolSearch === 'never' ? [{ text: 'done' }] : script);
  try {
    await createAgent({ host, model: scripted.model(provider), toolSearch }).run(question);
    return scripted.requests.map((request) => JSON.stringify(request.body));
  } finally {
    await scripted.close();
  }
}

const rows = [];
const estimates = [];
for (const provider of ['openai', 'anthropic']) {
  const [full] = await requests(provider, 'never');
  const [first, second] = await requests(provider, 'always');
  const label = provider === 'openai' ? 'OpenAI Chat Completions' : 'Anthropic Messages';
  // The host budgets tool results with an estimate (UTF-8 bytes / 4); how it compares with a tokenizer on JSON.
  estimates.push(`${label} ${percent(Math.ceil(bytes(full) / 4), tokens(full))}`);
  rows.push([
    `first request, ${label}: bytes`,
    number(bytes(full)),
    number(bytes(first)),
    percent(bytes(first), bytes(full)),
  ]);
  rows.push([
    `first request, ${label}: tokens (o200k_base)`,
    number(tokens(full)),
    number(tokens(first)),
    percent(tokens(first), tokens(full)),
  ]);
  rows.push([
    `second request (after search_tools), ${label}: tokens`,
    '',
    number(tokens(second)),
    percent(tokens(second), tokens(full)),
  ]);
}

// What a search costs in the host: building the index over 400 tools, and one query.
const agent = createAgent({ host, model: { provider: 'openai', name: 'none', complete: async () => ({}) } });
const queries = ['refund a charge', 'open a pull request', 'schedule a meeting', 'delete a secret', 'list log entries'];
const searchTimes = [];
// The first search builds the index over the registry; later ones reuse it until the registry changes.
const coldStarted = performance.now();
agent.tools.search({ query: 'warm up' });
const coldMs = performance.now() - coldStarted;
for (let round = 0; round < 20; round++) {
  for (const query of queries) {
    const before = performance.now();
    agent.tools.search({ query });
    searchTimes.push(performance.now() - before);
  }
}
searchTimes.sort((left, right) => left - right);
await host.close();

const header = ['measure (12 servers, 400 tools)', 'every schema', 'tool search', 'share'];
const table = [header, header.map(() => '---'), ...rows];
process.stdout.write(`${table.map((row) => `| ${row.join(' | ')} |`).join('\n')}\n\n`);
process.stdout.write(
  `search_tools over 400 tools: median ${searchTimes[Math.floor(searchTimes.length / 2)].toFixed(2)} ms a query` +
    ` (the first, which builds the index, ${coldMs.toFixed(1)} ms); 12 servers connected in ${Math.round(connectMs)} ms.\n` +
    `The host's token estimate (UTF-8 bytes / 4) of the full request, as a share of o200k_base's count: ${estimates.join(', ')}.\n` +
    `Node ${process.version}. Tokens counted with js-tiktoken's o200k_base over the JSON request body.\n`,
);
