#!/usr/bin/env node
// What the official SDK client spends on each server's answer, without the processes: mcpkit-database's and DBHub's
// answers to the bench's point query and `LIMIT 500` are taken once over stdio, then fed to an SDK `Client` through a
// transport that answers every `tools/call` with the recorded line (the stdio transport's ReadBuffer, JSON parse,
// the SDK's message and result checks, and with --listed the check of the structured content against the tool's
// output schema, which the client makes only once it holds a `tools/list`). Blocks of calls alternate between the
// answers; prints the median µs a call. The bench's own client (run.mjs) never lists tools, so it checks no schema.
//   node bench/database/client-cost.mjs [--listed] [--server PATH/bin/mcpkit-database.js]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, ReadBuffer } from '@modelcontextprotocol/client';

const { values } = parseArgs({ options: { listed: { type: 'boolean' }, server: { type: 'string' } } });
const file = fileURLToPath(new URL('../.data/database-1m.sqlite', import.meta.url));
if (!existsSync(file)) throw new Error(`${file} is missing: run bench/database/run.mjs once to generate it.`);
const bin = values.server ?? fileURLToPath(new URL('../../servers/database/bin/mcpkit-database.js', import.meta.url));
const dbhubBin = createRequire(import.meta.url).resolve('@bytebase/dbhub/dist/index.js');

/** Starts a server, sends `requests` one after the other after the handshake, and returns the answer lines. */
async function recordAnswers(args, requests) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  let pending = '';
  const waiting = new Map();
  child.stdout.on('data', (chunk) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      waiting.get(JSON.parse(line).id)?.(line);
    }
  });
  const ask = (id, method, params) =>
    new Promise((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const clientInfo = { name: 'client-cost', version: '1' };
  await ask(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const lines = [];
  for (const [method, params] of requests) lines.push(await ask(2, method, params));
  child.kill();
  return lines;
}

const point = 'SELECT * FROM events WHERE id = 4242';
const limit = 'SELECT * FROM events LIMIT 500';
const ours = (sql) => ['tools/call', { name: 'query', arguments: { sql, max_rows: 500 } }];
const theirs = (sql) => ['tools/call', { name: 'execute_sql', arguments: { sql } }];
const [toolsLine, oursPoint, oursLimit] = await recordAnswers(
  [bin, file],
  [['tools/list', {}], ours(point), ours(limit)],
);
const [dbhubPoint, dbhubLimit] = await recordAnswers(
  [dbhubBin, '--transport', 'stdio', '--dsn', `sqlite://${file}`],
  [theirs(point), theirs(limit)],
);
const answers = [
  { label: 'mcpkit, point query', call: ours(point)[1], line: oursPoint },
  { label: 'DBHub, point query', call: theirs(point)[1], line: dbhubPoint },
  { label: 'mcpkit, LIMIT 500', call: ours(limit)[1], line: oursLimit },
  { label: 'DBHub, LIMIT 500', call: theirs(limit)[1], line: dbhubLimit },
];

/** A transport that answers each request with a recorded line, through the stdio transport's ReadBuffer. */
class RecordedAnswers {
  answer = '';
  async start() {}
  async close() {}
  async send(message) {
    if (message.method === undefined || message.id === undefined) return;
    let line;
    if (message.method === 'initialize') {
      const result = {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 's', version: '1' },
      };
      line = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
    } else if (message.method === 'tools/list') {
      line = toolsLine.replace('"id":2', `"id":${message.id}`);
    } else {
      line = this.answer.replace('"id":2', `"id":${message.id}`);
    }
    const buffer = new ReadBuffer();
    buffer.append(Buffer.from(`${line}\n`));
    queueMicrotask(() => this.onmessage(buffer.readMessage()));
  }
}
const transport = new RecordedAnswers();
const client = new Client({ name: 'client-cost', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
await client.connect(transport);
if (values.listed) await client.listTools();

const median = (samples) => [...samples].sort((a, b) => a - b)[samples.length >> 1];
const perCall = new Map(answers.map((answer) => [answer, []]));
for (let round = 0; round < 12; round += 1) {
  for (const answer of answers) {
    transport.answer = answer.line;
    const count = 2000;
    const started = performance.now();
    for (let index = 0; index < count; index += 1) await client.callTool(answer.call);
    if (round >= 2) perCall.get(answer).push(((performance.now() - started) / count) * 1000);
  }
}
for (const answer of answers) {
  process.stdout.write(
    `${answer.label.padEnd(20)} ${String(answer.line.length).padStart(7)} characters ${median(perCall.get(answer)).toFixed(1).padStart(7)} µs a call\n`,
  );
}
await client.close();
