// Runs one requirement set of the official MCP conformance suite (server or client mode) and judges its results
// against a committed baseline of known failures. Shared by the server test (examples/conformance-server) and the
// client test (packages/agent-host); see docs/decisions/0010-conformance-run.md.
//
// The suite decides its own exit code from the required scenarios' FAILUREs only; we read every scenario's
// checks.json instead, so a WARNING, a crashed scenario, a scenario where no check succeeded, or a failing
// not-scored (extension, pending) scenario all count, unless the baseline lists them.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ensureNode22, ensureNpmTool, localToolEnvironment } from './ensure-node22.mjs';
import { runToEnd } from './run-to-end.mjs';

/** The suite, pinned exactly: its frozen requirement sets and its checks are what the baselines describe. */
export const conformanceSpec = '@modelcontextprotocol/conformance@0.2.0-alpha.12';

/** The pseudo check id of a scenario that wrote no checks.json (it crashed before reporting). */
export const noResultsCheck = '(no results)';
/** The pseudo check id of a scenario in which no check succeeded (everything skipped or informational). */
export const noSuccessCheck = '(no successful check)';

const timestampSuffix = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * Reads the result folders the suite wrote under `outputDirectory`: a map from scenario name to its checks, or to
 * null when the folder has no checks.json. Server folders are `server-<scenario>-<timestamp>`, client folders
 * `<scenario>-<timestamp>`, where a client scenario such as `auth/dpop` makes a subfolder.
 */
export function readScenarioResults(outputDirectory, mode) {
  const results = new Map();
  const visit = (directory) => {
    for (const entry of readdirSync(directory)) {
      const path = join(directory, entry);
      if (!statSync(path).isDirectory()) continue;
      if (!timestampSuffix.test(entry)) {
        visit(path);
        continue;
      }
      let scenario = relative(outputDirectory, path).replace(timestampSuffix, '').split('\\').join('/');
      if (mode === 'server') scenario = scenario.replace(/^server-/, '');
      const checksPath = join(path, 'checks.json');
      results.set(scenario, existsSync(checksPath) ? JSON.parse(readFileSync(checksPath, 'utf8')) : null);
    }
  };
  visit(outputDirectory);
  return results;
}

/**
 * Reads what the suite printed: the number of scenarios it announced for the requirement set, and the scenarios it
 * ran without scoring, each with the suite's reason (extension, added-after-release, pending).
 */
export function readRunSummary(output) {
  const announcement = /Running requirements (\S+) \((\d+) scenarios\)/.exec(output);
  const notScored = new Map();
  const section = output.split(/^Not scored for \S+:.*$/m)[1] ?? '';
  for (const match of section.matchAll(/^\s+[✓✗] (\S+) \(([^)]+)\)\s*$/gm)) notScored.set(match[1], match[2]);
  return {
    requirements: announcement?.[1],
    announced: announcement ? Number(announcement[2]) : undefined,
    notScored,
  };
}

/** The failing check ids of a scenario's results (FAILURE or WARNING, or a pseudo id), each with its first message. */
export function failingChecks(checks) {
  if (checks === null) return new Map([[noResultsCheck, 'the scenario wrote no checks.json']]);
  const failing = new Map();
  for (const check of checks) {
    if ((check.status === 'FAILURE' || check.status === 'WARNING') && !failing.has(check.id)) {
      failing.set(check.id, `${check.status} ${check.errorMessage ?? ''}`.trim());
    }
  }
  if (failing.size === 0 && !checks.some((check) => check.status === 'SUCCESS')) {
    failing.set(noSuccessCheck, `no check succeeded (${checks.map((check) => check.status).join(', ') || 'none'})`);
  }
  return failing;
}

/** Reads a baseline file and checks that it describes this suite version and requirement set. */
export function readBaseline(path, requirements) {
  const baseline = JSON.parse(readFileSync(path, 'utf8'));
  if (baseline.suite !== conformanceSpec || baseline.requirements !== requirements) {
    throw new Error(
      `${path} describes ${baseline.suite} --requirements ${baseline.requirements}, not ${conformanceSpec} ` +
        `--requirements ${requirements}: run the suite and rewrite the baseline`,
    );
  }
  return { required: baseline.required ?? {}, notScored: baseline.notScored ?? {} };
}

/**
 * Judges a run against a baseline. A baseline key is a scenario (every check of it may fail) or `scenario:check-id`
 * (only that check may fail), filed under `required` or `notScored` as the suite classifies the scenario. Returns
 * the regressions (failing checks no entry excuses) and their scenarios, the stale entries (their scenario or check
 * now passes, or did not run) and the misplaced ones (filed in the wrong section), plus the passing and failing
 * scenario names.
 */
export function judgeRun({ results, notScored }, baseline) {
  const regressions = [];
  const regressed = new Set();
  const stale = [];
  const misplaced = [];
  const passed = [];
  const failed = [];
  const used = new Set();
  for (const [scenario, checks] of results) {
    const section = notScored.has(scenario) ? 'notScored' : 'required';
    const other = section === 'required' ? 'notScored' : 'required';
    const entries = baseline[section];
    for (const key of Object.keys(baseline[other])) {
      if (key === scenario || key.startsWith(`${scenario}:`)) {
        misplaced.push(`${key} is listed under ${other} but the suite runs it as ${section}`);
        used.add(`${other}/${key}`);
      }
    }
    const failing = failingChecks(checks);
    (failing.size === 0 ? passed : failed).push(scenario);
    if (scenario in entries) {
      used.add(`${section}/${scenario}`);
      if (failing.size === 0) stale.push(`${section} ${scenario}: passes now; remove it from the baseline`);
      for (const key of Object.keys(entries)) {
        if (!key.startsWith(`${scenario}:`)) continue;
        used.add(`${section}/${key}`);
        misplaced.push(`${key} is redundant: the whole scenario ${scenario} is listed`);
      }
      continue;
    }
    for (const [id, message] of failing) {
      const key = `${scenario}:${id}`;
      if (key in entries) used.add(`${section}/${key}`);
      else {
        regressions.push(`${section} ${scenario} / ${id}: ${message}`);
        regressed.add(scenario);
      }
    }
    for (const key of Object.keys(entries)) {
      if (!key.startsWith(`${scenario}:`)) continue;
      used.add(`${section}/${key}`);
      if (!failing.has(key.slice(scenario.length + 1))) {
        stale.push(`${section} ${key}: passes now (or did not run); remove it from the baseline`);
      }
    }
  }
  for (const section of ['required', 'notScored']) {
    for (const key of Object.keys(baseline[section])) {
      if (!used.has(`${section}/${key}`)) stale.push(`${section} ${key}: no such scenario ran; remove it`);
    }
  }
  return { regressions, regressed: [...regressed], stale, misplaced, passed, failed };
}

/**
 * Judges `run` against the baseline file at `path`: `problems` fail the test unless all three are empty;
 * `requiredFailed` names the required scenarios that failed (listed or not), `regressed` those with regressions.
 */
export function checkAgainstBaseline(run, path) {
  const verdict = judgeRun(run, readBaseline(path, run.requirements));
  return {
    problems: { regressions: verdict.regressions, stale: verdict.stale, misplaced: verdict.misplaced },
    requiredFailed: verdict.failed.filter((scenario) => !run.notScored.has(scenario)),
    regressed: verdict.regressed,
  };
}

/** Runs the suite in `mode` against `target` with the given scenario selection; reads and removes its results. */
async function runSuite({ mode, target, timeoutMs }, selection) {
  const node = ensureNode22();
  const conformance = ensureNpmTool(conformanceSpec).bins.conformance;
  if (!conformance) throw new Error(`${conformanceSpec} has no conformance bin`);
  const outputDirectory = mkdtempSync(join(tmpdir(), `mcpkit-conformance-${mode}-`));
  try {
    const args = [conformance, mode, mode === 'server' ? '--url' : '--command', target, ...selection];
    args.push('--output-dir', outputDirectory);
    if (timeoutMs !== undefined) args.push('--timeout', String(timeoutMs));
    // The suite talks to servers on 127.0.0.1; a proxy variable the test inherited must not route it elsewhere.
    const { code, output } = await runToEnd(node, args, { env: localToolEnvironment() });
    return { code, output, results: readScenarioResults(outputDirectory, mode) };
  } finally {
    rmSync(outputDirectory, { recursive: true, force: true });
  }
}

/**
 * Runs one requirement set: `server` mode against `target` (a URL) or `client` mode with `target` as the command
 * that starts the client. Installs Node 22 and the suite on first use.
 */
export async function runRequirementSet(options) {
  const run = await runSuite(options, ['--requirements', options.requirements]);
  return { ...run, ...readRunSummary(run.output) };
}

/**
 * Runs `scenarios` of a set again, one at a time, at the set's wire version, and returns `run` with their new
 * results: for client mode, where the suite starts all of a set's clients at once and a loaded machine can time one
 * out. A scenario that fails alone too is a regression all the same.
 */
export async function rerunScenarios(run, options, scenarios) {
  const results = new Map(run.results);
  for (const scenario of scenarios) {
    const selection = ['--scenario', scenario, '--spec-version', options.requirements, '--force'];
    const single = await runSuite(options, selection);
    results.set(scenario, single.results.get(scenario) ?? null);
  }
  return { ...run, results };
}
