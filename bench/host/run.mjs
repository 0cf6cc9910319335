#!/usr/bin/env node
// Host benchmark: what the agent loop adds per step, concurrent tool calls, and connecting several servers.
// Each measurement runs mcpkit-host's code and a bare baseline side by side in one run (the official SDK client and
// plain undici requests doing the same work with no loop), and prints a table of medians. The loop and the fan-out
// run in both protocol eras: against the tool server as it is (2026-07-28, negotiated by server/discover) and
// against the same server speaking only 2025-11-25 (--legacy), where the host falls back to the handshake.
//   node bench/host/run.mjs [--quick]
// Build first: npx turbo run build --filter=@mcpkit/agent-host...
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectHost, createAgent } from '@mcpkit/agent-host';
import { startScriptedModel } from '@mcpkit/agent-host/testing';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { median } from '../measures.mjs';

// The baseline uses the same HTTP client as the host (undici, the host's own dependency) for a like-for-like measure.
const { request } = createRequire(fileURLToPath(import.meta.resolve('@mcpkit/agent-host')))('undici');

const quick = process.argv.includes('--quick');
const rounds = quick ? 3 : 9;
const stepsPerRun = quick ? 20 : 50;
const toolServer = fileURLToPath(new URL('./instant-server.mjs', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

const ms = (value) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const log = () => {};
// The two eras: the tool server's arguments, and the bare client's version negotiation that reaches the same era.
const eras = {
  '2026-07-28': { serverArgs: [], negotiation: { mode: 'auto' } },
  '2025-11-25': { serverArgs: ['--legacy'], negotiation: { mode: 'legacy' } },
};
const benchConfig = (name = 'bench', era = '2026-07-28') => ({
  name,
  transport: { kind: 'stdio', command: process.execPath, args: [toolServer, ...eras[era].serverArgs], env: {} },
  tools: {},
  callTimeoutMs: 60_000,
  startupTimeoutMs: 60_000,
  disabled: false,
});

async function sdkClient(era) {
  const client = new Client(
    { name: 'bench-baseline', version: '1.0.0' },
    { versionNegotiation: eras[era].negotiation },
  );
  const args = [toolServer, ...eras[era].serverArgs];
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  if (client.getNegotiatedProtocolVersion() !== era)
    throw new Error(`the baseline negotiated ${client.getNegotiatedProtocolVersion()}`);
  return client;
}

/** Connects the host to the tool server and checks it negotiated `era`. */
async function benchHost(era) {
  const host = await connectHost({ servers: [benchConfig('bench', era)] }, { log });
  const version = host.connection('bench')?.protocol?.version;
  if (version !== era) throw new Error(`the host negotiated ${version ?? 'nothing'} instead of ${era}`);
  return host;
}

// 1. Per-step overhead: N steps of (model request, one instant tool call), then the answer.
async function stepOverhead(era) {
  const script = [
    ...Array.from({ length: stepsPerRun }, (_, step) => ({
      toolCalls: [{ name: 'bench__instant', arguments: { step } }],
    })),
    { text: 'done' },
  ];
  const ours = [];
  const own = [];
  const bare = [];
  const host = await benchHost(era);
  const client = await sdkClient(era);
  const runOurs = async () => {
    const model = await startScriptedModel(script);
    const agent = createAgent({ host, model: model.model('openai'), maxSteps: stepsPerRun + 1 });
    // The loop's own time in a step: the step minus its model request and its tool call.
    let outside = 0;
    agent.subscribe((event) => {
      if (event.type === 'step-end') outside += event.durationMs;
      if (event.type === 'model-response' || event.type === 'tool-call-end') outside -= event.durationMs;
    });
    const started = performance.now();
    const result = await agent.run('Go.');
    const elapsed = performance.now() - started;
    if (result.answer !== 'done') throw new Error(`unexpected answer ${result.answer}`);
    await model.close();
    return { perStep: elapsed / (stepsPerRun + 1), own: outside / (stepsPerRun + 1), requests: model.requests };
  };
  // A warm-up run, not measured, also records the request bodies the baseline replays.
  const bodies = (await runOurs()).requests.map((entry) => JSON.stringify(entry.body));
  // The baseline sends the very same request bodies with plain undici and calls the tool with the bare SDK client.
  const runBare = async () => {
    const replay = await startScriptedModel(script);
    const started = performance.now();
    for (let step = 0; step <= stepsPerRun; step++) {
      const response = await request(`${replay.openAIBaseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: bodies[step],
      });
      await response.body.text();
      if (step < stepsPerRun) await client.callTool({ name: 'instant', arguments: { step } });
    }
    const elapsed = performance.now() - started;
    await replay.close();
    return elapsed / (stepsPerRun + 1);
  };
  for (let round = 0; round < rounds; round++) {
    // Alternate the order so that neither side always runs on a warmer or busier machine.
    const bareFirst = round % 2 === 1;
    if (bareFirst) bare.push(await runBare());
    const measured = await runOurs();
    ours.push(measured.perStep);
    own.push(measured.own);
    if (!bareFirst) bare.push(await runBare());
  }
  await Promise.all([client.close(), host.close()]);
  return { ours: median(ours), own: median(own), bare: median(bare) };
}

// 2. Three tools of 200 ms each called in one turn: the step's tool phase.
async function concurrentTools(era) {
  const script = [
    {
      toolCalls: [
        { name: 'bench__sleep', arguments: { ms: 200 } },
        { name: 'bench__sleep', arguments: { ms: 200 } },
        { name: 'bench__sleep', arguments: { ms: 200 } },
      ],
    },
    { text: 'done' },
  ];
  const phases = [];
  const steps = [];
  const bare = [];
  const host = await benchHost(era);
  const client = await sdkClient(era);
  for (let round = 0; round < rounds; round++) {
    const model = await startScriptedModel(script);
    const agent = createAgent({ host, model: model.model('anthropic') });
    let firstStart = 0;
    let lastEnd = 0;
    agent.subscribe((event) => {
      if (event.type === 'tool-call-start' && !firstStart) firstStart = performance.now();
      if (event.type === 'tool-call-end') lastEnd = performance.now();
      if (event.type === 'step-end' && event.step === 1) steps.push(event.durationMs);
    });
    await agent.run('Sleep three times.');
    await model.close();
    phases.push(lastEnd - firstStart);
    const started = performance.now();
    await Promise.all([0, 1, 2].map(() => client.callTool({ name: 'sleep', arguments: { ms: 200 } })));
    bare.push(performance.now() - started);
  }
  await Promise.all([client.close(), host.close()]);
  return { phase: median(phases), step: median(steps), bare: median(bare) };
}

// 3. Connecting the three reference servers at once versus one alone.
async function connectReference() {
  const directory = mkdtempSync(join(tmpdir(), 'mcpkit-bench-host-'));
  const bin = (name) => join(root, 'servers', name, 'bin', `mcpkit-${name}.js`);
  const stdio = (name, args) => ({
    ...benchConfig(name),
    transport: { kind: 'stdio', command: process.execPath, args: [bin(name), ...args], env: {} },
  });
  const database = stdio('database', ['--create', join(directory, 'bench.sqlite')]);
  const filesystem = stdio('filesystem', [directory]);
  const search = stdio('search', ['--no-watch', '--index-file', join(directory, 'index.sqlite'), directory]);
  const negotiated = new Set();
  const time = async (servers) => {
    const started = performance.now();
    const host = await connectHost({ servers }, { log });
    const elapsed = performance.now() - started;
    for (const connection of host.connections) negotiated.add(connection.protocol?.version);
    const failed = host.failures.map((failure) => `${failure.server}: ${failure.message}`);
    await host.close();
    if (failed.length > 0) throw new Error(failed.join('; '));
    return elapsed;
  };
  const alone = { database: [], filesystem: [], search: [] };
  const together = [];
  try {
    for (let round = 0; round < rounds; round++) {
      alone.database.push(await time([database]));
      alone.filesystem.push(await time([filesystem]));
      alone.search.push(await time([search]));
      together.push(await time([database, filesystem, search]));
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return {
    database: median(alone.database),
    filesystem: median(alone.filesystem),
    search: median(alone.search),
    together: median(together),
    eras: [...negotiated].join(', '),
  };
}

const rows = [];
for (const era of Object.keys(eras)) {
  const step = await stepOverhead(era);
  rows.push([
    `${era}: one loop step (scripted model + instant tool), per step over ${stepsPerRun + 1} steps`,
    ms(step.ours),
    ms(step.bare),
    `${(step.ours / step.bare).toFixed(2)}x; difference ${ms(step.ours - step.bare)}/step; loop's own time outside the model request and the tool call ${ms(step.own)}/step (target <= 1 ms)`,
  ]);
  const concurrent = await concurrentTools(era);
  rows.push([
    `${era}: three 200 ms tools in one turn: tool phase`,
    ms(concurrent.phase),
    ms(concurrent.bare),
    `${(concurrent.phase / concurrent.bare).toFixed(2)}x; whole step ${ms(concurrent.step)} (target <= 260 ms)`,
  ]);
}
try {
  const connect = await connectReference();
  const slowest = Math.max(connect.database, connect.filesystem, connect.search);
  rows.push([
    `connect database + filesystem + search at once (${connect.eras})`,
    ms(connect.together),
    ms(slowest),
    `${(connect.together / slowest).toFixed(2)}x of the slowest alone (database ${ms(connect.database)}, filesystem ${ms(connect.filesystem)}, search ${ms(connect.search)}; in sequence ${ms(connect.database + connect.filesystem + connect.search)})`,
  ]);
} catch (error) {
  rows.push(['connect the reference servers', 'failed', '-', String(error.message ?? error)]);
}

const header = ['measure (median)', 'mcpkit-host', 'bare SDK client + undici', 'ratio / note'];
const table = [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
process.stdout.write(
  `\nHost benchmark (${rounds} rounds${quick ? ', quick' : ''}, Node ${process.version})\n\n${table}\n`,
);
