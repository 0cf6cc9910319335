import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNode22, ensureNpmTool } from '../../../scripts/tools/ensure-node22.mjs';
import { runProcess } from './helpers.js';

// The official conformance suite in client mode against `mcpkit-host conformance-client`. The suite needs Node 22,
// installed from the npm registry into the ignored .tools folder; the host itself runs on this Node.
const conformanceSpec = '@modelcontextprotocol/conformance@0.1.16';
const hostBin = fileURLToPath(new URL('../bin/mcpkit-host.js', import.meta.url));
const baseline = fileURLToPath(new URL('./conformance/baseline.yml', import.meta.url));
const coreScenarios = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

async function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const result = await runProcess(command, args);
  return { code: result.code, output: `${result.stdout}${result.stderr}` };
}

describe('the official MCP conformance suite, client mode', () => {
  let outputDirectory = '';
  let node = '';
  let conformance = '';
  const client = () => ['--command', `"${process.execPath}" "${hostBin}" conformance-client`, '--timeout', '60000'];

  beforeAll(() => {
    node = ensureNode22();
    conformance = ensureNpmTool(conformanceSpec).bins.conformance ?? '';
    if (!conformance) throw new Error(`${conformanceSpec} has no conformance bin`);
    outputDirectory = mkdtempSync(join(tmpdir(), 'mcpkit-host-conformance-'));
  }, 600_000);

  afterAll(() => {
    if (outputDirectory) rmSync(outputDirectory, { recursive: true, force: true });
  });

  // One at a time: sse-retry measures how long the client waits before reconnecting, which a machine busy with
  // the suite's parallel runs would distort.
  it.each(coreScenarios)(
    'passes %s',
    async (scenario) => {
      const result = await run(node, [
        conformance,
        'client',
        ...client(),
        '--scenario',
        scenario,
        '-o',
        outputDirectory,
      ]);
      expect(result.code, result.output).toBe(0);
      const folder = readdirSync(outputDirectory).find((entry) => entry.startsWith(`${scenario}-`));
      expect(folder, `no results for ${scenario}`).toBeDefined();
      const checks = JSON.parse(readFileSync(join(outputDirectory, folder ?? '', 'checks.json'), 'utf8')) as Check[];
      expect(checks.filter((check) => check.status === 'SUCCESS').length).toBeGreaterThan(0);
      expect(checks.filter((check) => check.status === 'FAILURE')).toEqual([]);
    },
    120_000,
  );

  it('fails exactly the OAuth scenarios listed in the baseline', async () => {
    const result = await run(node, [
      conformance,
      'client',
      ...client(),
      '--suite',
      'auth',
      '--expected-failures',
      baseline,
    ]);
    expect(result.code, result.output).toBe(0);
  }, 300_000);
});
