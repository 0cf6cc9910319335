import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AgentEvent,
  connectHost,
  createAgent,
  HostError,
  parseConfig,
  type RunResult,
  selectModel,
  traceListener,
} from '@mcpkit/agent-host';
import { startScriptedModel } from '@mcpkit/agent-host/testing';
import { createSampleDatabase } from '@mcpkit/server-database';
import { demoScenarios, type Scenario } from './scenarios.js';
import { demoServers, type SampleData } from './server-config.js';

/** How to run the demo. */
export interface DemoOptions {
  /** Where the generated sample data goes (a fresh database and search index each run). */
  dataDirectory: string;
  /** `provider:model`, as for `mcpkit-host --model`; without it (and without a model in the environment) the demo plays its script. */
  model?: string;
  /** The environment that configures a real model (OPENAI_API_KEY, ANTHROPIC_API_KEY, MCPKIT_MODEL, ...). */
  environment?: NodeJS.ProcessEnv;
  /** Where the trace goes. */
  write(text: string): void;
  /** Where the servers' stderr lines go (default: kept, and shown only if a server fails). */
  serverLog?(server: string, line: string): void;
}

/** One scenario as it ran. */
export interface ScenarioRun {
  scenario: Scenario;
  result: RunResult;
  events: AgentEvent[];
}

/** What the demo did. */
export interface DemoResult {
  scripted: boolean;
  runs: ScenarioRun[];
}

/** The demo's documents: a small company handbook and product pages, committed as Markdown. */
export const documentsDirectory = fileURLToPath(new URL('../documents', import.meta.url));

const system =
  'You are the assistant of Northwind Labs. Answer from the company database and documents through the tools; ' +
  'when a tool reports an error, read it and correct your next call.';

/**
 * The model the environment configures, as the host's own `selectModel` reads it, or undefined when none is
 * configured. A model that is named (--model, MCPKIT_MODEL) but cannot be used is an error, not a fall-back.
 */
async function configuredModel(spec: string | undefined, environment: NodeJS.ProcessEnv) {
  try {
    return await selectModel(spec, environment);
  } catch (error) {
    const named = spec !== undefined || environment.MCPKIT_MODEL !== undefined;
    if (!named && HostError.isInstance(error) && error.code === 'MODEL_NOT_CONFIGURED') return undefined;
    throw error;
  }
}

/** Generates the sample data: a fresh company database; the documents are served where they are. */
export async function prepareSampleData(dataDirectory: string): Promise<SampleData> {
  await mkdir(dataDirectory, { recursive: true });
  const databaseFile = join(dataDirectory, 'company.sqlite');
  const searchIndexFile = join(dataDirectory, 'search-index.sqlite');
  await rm(databaseFile, { force: true });
  createSampleDatabase(databaseFile);
  return { databaseFile, documentsDirectory, searchIndexFile };
}

/**
 * Runs the end-to-end demo: the agent host connects the database, filesystem and search servers, then each scenario's
 * question goes through the real agent loop, with a real model when one is configured and the scripted one otherwise.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const environment = options.environment ?? process.env;
  const data = await prepareSampleData(options.dataDirectory);
  const scenarios = demoScenarios(data);
  let model = await configuredModel(options.model, environment);
  const scripted = model === undefined;
  if (model === undefined) {
    const server = await startScriptedModel(scenarios.flatMap((scenario) => scenario.script));
    model = { model: server.model('openai'), close: () => server.close() };
    options.write(
      'Model: scripted (no model configured; the scripted model speaks the OpenAI wire format over loopback HTTP).\n' +
        'Set OPENAI_API_KEY, ANTHROPIC_API_KEY or MCPKIT_MODEL (e.g. ollama:llama3.1) to use a real model.\n\n',
    );
  } else {
    options.write(`Model: ${options.model ?? environment.MCPKIT_MODEL ?? 'from the environment'}\n\n`);
  }

  const serverLines: string[] = [];
  const host = await connectHost(await parseConfig(demoServers(data), { file: 'demo config' }), {
    log: options.serverLog ?? ((server, line) => serverLines.push(`[${server}] ${line}`)),
    roots: [data.documentsDirectory],
  });
  try {
    for (const failure of host.failures)
      options.write(`! server ${failure.server} failed to start: ${failure.message}\n`);
    if (host.failures.length > 0 && serverLines.length > 0) options.write(`${serverLines.join('\n')}\n`);
    const byServer = new Map<string, number>();
    for (const entry of host.registry.list()) byServer.set(entry.server, (byServer.get(entry.server) ?? 0) + 1);
    options.write(`Connected: ${[...byServer].map(([server, count]) => `${server} (${count} tools)`).join(', ')}\n\n`);

    const runs: ScenarioRun[] = [];
    for (const [index, scenario] of scenarios.entries()) {
      options.write(`━━ ${index + 1}/${scenarios.length} ${scenario.title}\n`);
      options.write(`  you: ${scenario.question}\n`);
      const agent = createAgent({ host, model: model.model, system });
      const events: AgentEvent[] = [];
      agent.subscribe((event) => events.push(event));
      agent.subscribe(traceListener(options.write, { resultLines: 6 }));
      const result = await agent.run(scenario.question);
      const answer = result.answer
        .trim()
        .split('\n')
        .map((line) => (line ? `    ${line}` : ''));
      options.write(`  answer:\n${answer.join('\n')}\n\n`);
      runs.push({ scenario, result, events });
    }
    return { scripted, runs };
  } finally {
    await host.close();
    await model.close();
  }
}
