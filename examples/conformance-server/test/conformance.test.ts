import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConformanceCheck,
  checkAgainstBaseline,
  type RequirementSetRun,
  runRequirementSet,
} from '../../../scripts/tools/conformance-run.mjs';
import { npmInstallTimeoutMs } from '../../../scripts/tools/ensure-node22.mjs';

// The official suite's frozen requirement sets, each run at its own wire version (the 2025-11-25 handshake, the
// stateless 2026-07-28), judged against this folder's expected-failures.<set>.json (decision 0010).
const requirementSets = ['2025-11-25', '2026-07-28'] as const;
const serverBin = fileURLToPath(new URL('../bin/mcpkit-conformance-server.js', import.meta.url));
const baselinePath = (requirements: string) =>
  fileURLToPath(new URL(`../expected-failures.${requirements}.json`, import.meta.url));

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

describe('the official MCP conformance suite, server mode', () => {
  let server: { child: ChildProcess; url: string } | undefined;
  const runs = new Map<string, RequirementSetRun>();

  // One set after the other against one server: each run takes a few seconds, and the server's sessions of one set
  // must not be judged while the other set's stateless probes hit it. The hook allows the first run's two installs
  // (Node 22 and the suite, each within the install time limit) and two minutes for the runs.
  const hookTimeoutMs = 2 * npmInstallTimeoutMs() + 120_000;
  beforeAll(async () => {
    server = await startServer();
    for (const requirements of requirementSets) {
      runs.set(requirements, await runRequirementSet({ mode: 'server', requirements, target: server.url }));
    }
  }, hookTimeoutMs);

  afterAll(() => {
    server?.child.kill('SIGTERM');
  });

  const runOf = (requirements: string): RequirementSetRun => {
    const run = runs.get(requirements);
    if (!run) throw new Error(`requirement set ${requirements} did not run`);
    return run;
  };

  describe.each(requirementSets)('--requirements %s', (requirements) => {
    it('runs every scenario the suite announced', () => {
      const run = runOf(requirements);
      expect(run.requirements, run.output).toBe(requirements);
      expect(run.announced, run.output).toBeGreaterThanOrEqual(30);
      expect([...run.results.keys()]).toHaveLength(run.announced ?? -1);
    });

    it('fails and warns exactly where the baseline says, and nowhere else', () => {
      const run = runOf(requirements);
      const { problems, requiredFailed } = checkAgainstBaseline(run, baselinePath(requirements));
      expect(problems).toEqual({ regressions: [], stale: [], misplaced: [] });
      // The suite's own verdict counts required FAILUREs only; with none left, it must agree.
      if (requiredFailed.length === 0) expect(run.code, run.output).toBe(0);
    });
  });

  // The checks below read details of the 2025-11-25 run, because some checks pass on any non-empty answer (an
  // isError result included) or count messages without looking at them.
  const check = (scenario: string, id: string): ConformanceCheck => {
    const checks = runOf('2025-11-25').results.get(scenario);
    if (!checks) throw new Error(`scenario ${scenario} did not run or wrote no results`);
    const found = checks.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`scenario ${scenario} has no check ${id}`);
    return found;
  };

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
