import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNode22, ensureNpmTool } from '../../../scripts/tools/ensure-node22.mjs';
import { runToEnd } from '../../../scripts/tools/run-to-end.mjs';

/** The suite version the issue names; its active server scenarios are what the server must pass. */
const conformanceSpec = '@modelcontextprotocol/conformance@0.1.16';
const serverBin = fileURLToPath(new URL('../bin/mcpkit-conformance-server.js', import.meta.url));

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: Record<string, unknown>;
}

/** Starts the server on a free loopback port and resolves with its endpoint URL, read from its startup log line. */
function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [serverBin, '--http', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start in time:\n${stderr}`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /Serving Streamable HTTP at (\S+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with code ${code} before listening:\n${stderr}`));
    });
  });
}

describe('the official MCP conformance suite (active server scenarios)', () => {
  let server: { child: ChildProcess; url: string };
  let outputDirectory: string;
  let result: { code: number | null; output: string };
  /** Checks by scenario name, read from each scenario's checks.json. */
  const scenarios = new Map<string, Check[]>();

  beforeAll(async () => {
    const node = ensureNode22();
    const { bins } = ensureNpmTool(conformanceSpec);
    const conformance = bins.conformance;
    if (!conformance) throw new Error(`${conformanceSpec} has no conformance bin`);
    server = await startServer();
    outputDirectory = mkdtempSync(join(tmpdir(), 'mcpkit-conformance-'));
    result = await runToEnd(node, [conformance, 'server', '--url', server.url, '--output-dir', outputDirectory]);
    for (const entry of readdirSync(outputDirectory)) {
      const name = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
      if (!name) continue;
      scenarios.set(name, JSON.parse(readFileSync(join(outputDirectory, entry, 'checks.json'), 'utf8')) as Check[]);
    }
  }, 600_000);

  afterAll(() => {
    server?.child.kill('SIGTERM');
    if (outputDirectory) rmSync(outputDirectory, { recursive: true, force: true });
  });

  const checksOf = (scenario: string): Check[] => {
    const checks = scenarios.get(scenario);
    if (!checks) throw new Error(`scenario ${scenario} did not run; ran: ${[...scenarios.keys()].join(', ')}`);
    return checks;
  };
  const check = (scenario: string, id: string): Check => {
    const found = checksOf(scenario).find((candidate) => candidate.id === id);
    if (!found) throw new Error(`scenario ${scenario} has no check ${id}`);
    return found;
  };

  it('runs every active scenario and exits 0', () => {
    const announced = /Running active suite \((\d+) scenarios\)/.exec(result.output)?.[1];
    expect(announced, result.output).toBeDefined();
    expect(scenarios.size).toBe(Number(announced));
    expect(scenarios.size).toBeGreaterThanOrEqual(30);
    expect(result.code, result.output).toBe(0);
  });

  it('passes every check of every scenario, with no failure or warning', () => {
    const problems: string[] = [];
    for (const [scenario, checks] of scenarios) {
      if (!checks.some((item) => item.status === 'SUCCESS')) problems.push(`${scenario}: no check succeeded`);
      for (const item of checks) {
        if (item.status === 'FAILURE' || item.status === 'WARNING') {
          problems.push(`${scenario} / ${item.id}: ${item.status} ${item.errorMessage ?? ''}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  // The checks below read details, because some checks pass on any non-empty answer (an isError result included).
  it('sends three log notifications and three increasing progress notifications during the calls', () => {
    const logging = check('tools-call-with-logging', 'tools-call-with-logging').details as {
      logs: { data: unknown }[];
    };
    expect(logging.logs.map((entry) => entry.data)).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
    const progress = check('tools-call-with-progress', 'tools-call-with-progress').details as {
      progressNotifications: { progress: number; total: number }[];
    };
    expect(progress.progressNotifications.map((entry) => [entry.progress, entry.total])).toEqual([
      [0, 100],
      [50, 100],
      [100, 100],
    ]);
  });

  it('answers sampling and elicitation with the client answer, not with an error', () => {
    const sampling = check('tools-call-sampling', 'tools-call-sampling').details as {
      samplingRequested: boolean;
      result: { isError?: boolean; content: { text?: string }[] };
    };
    expect(sampling.samplingRequested).toBe(true);
    expect(sampling.result.isError).not.toBe(true);
    expect(sampling.result.content[0]?.text).toBe('LLM response: This is a test response from the client');
    const elicitation = check('tools-call-elicitation', 'tools-call-elicitation').details as {
      elicitationRequested: boolean;
      result: { isError?: boolean; content: { text?: string }[] };
    };
    expect(elicitation.elicitationRequested).toBe(true);
    expect(elicitation.result.isError).not.toBe(true);
    expect(elicitation.result.content[0]?.text).toContain('"username":"testuser"');
  });

  it('streams several POST responses as working SSE streams and refuses a foreign Host', () => {
    const streams = check('server-sse-multiple-streams', 'server-sse-streams-functional');
    expect(streams.status).toBe('SUCCESS');
    expect(streams.details).toMatchObject({ numSseStreams: 3, functionalSseStreams: 3 });
    expect(check('dns-rebinding-protection', 'localhost-host-rebinding-rejected').details).toMatchObject({
      statusCode: 403,
    });
    expect(check('tools-call-error', 'tools-call-error').details).toMatchObject({ result: { isError: true } });
  });
});
