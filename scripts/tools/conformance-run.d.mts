/** One check of a scenario, as the suite writes it to checks.json. */
export interface ConformanceCheck {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: Record<string, unknown>;
}
/** Scenario name to its checks, or null when the scenario wrote no checks.json. */
export type ScenarioResults = Map<string, ConformanceCheck[] | null>;
/** Known failures of one (mode, requirement set): key `scenario` or `scenario:check-id`, value a one-line reason. */
export interface ConformanceBaseline {
  required: Record<string, string>;
  notScored: Record<string, string>;
}
/** What one run of a requirement set produced. */
export interface RequirementSetRun {
  code: number | null;
  output: string;
  results: ScenarioResults;
  requirements: string | undefined;
  announced: number | undefined;
  notScored: Map<string, string>;
}
/** The verdict of a run against a baseline. */
export interface ConformanceVerdict {
  regressions: string[];
  /** The scenarios of the regressions, each once. */
  regressed: string[];
  stale: string[];
  misplaced: string[];
  passed: string[];
  failed: string[];
}
/** The suite, pinned exactly: its frozen requirement sets and its checks are what the baselines describe. */
export declare const conformanceSpec: string;
/** The pseudo check id of a scenario that wrote no checks.json (it crashed before reporting). */
export declare const noResultsCheck: string;
/** The pseudo check id of a scenario in which no check succeeded (everything skipped or informational). */
export declare const noSuccessCheck: string;
/** Reads the result folders the suite wrote: scenario name to its checks, or null without checks.json. */
export declare function readScenarioResults(outputDirectory: string, mode: 'server' | 'client'): ScenarioResults;
/** Reads the announced scenario count and the not-scored scenarios (with the suite's reason) from the output. */
export declare function readRunSummary(
  output: string,
): Pick<RequirementSetRun, 'requirements' | 'announced' | 'notScored'>;
/** The failing check ids of a scenario's results (FAILURE or WARNING, or a pseudo id), each with its first message. */
export declare function failingChecks(checks: ConformanceCheck[] | null): Map<string, string>;
/** Reads a baseline file and checks that it describes this suite version and requirement set. */
export declare function readBaseline(path: string, requirements: string): ConformanceBaseline;
/** Judges a run against a baseline: regressions, stale entries, misplaced entries, passing and failing scenarios. */
export declare function judgeRun(
  run: Pick<RequirementSetRun, 'results' | 'notScored'>,
  baseline: ConformanceBaseline,
): ConformanceVerdict;
/** Judges a run against the baseline file at `path`: what fails the test, and which required scenarios failed. */
export declare function checkAgainstBaseline(
  run: RequirementSetRun,
  path: string,
): {
  problems: Pick<ConformanceVerdict, 'regressions' | 'stale' | 'misplaced'>;
  requiredFailed: string[];
  regressed: string[];
};
/** How to run a requirement set: the mode, the set, the server URL or the client command, the scenario timeout. */
export interface RequirementSetOptions {
  mode: 'server' | 'client';
  requirements: string;
  target: string;
  timeoutMs?: number;
}
/** Runs one requirement set in server mode (target: URL) or client mode (target: command) and reads its results. */
export declare function runRequirementSet(options: RequirementSetOptions): Promise<RequirementSetRun>;
/** Runs `scenarios` again one at a time at the set's wire version; returns `run` with their new results. */
export declare function rerunScenarios(
  run: RequirementSetRun,
  options: RequirementSetOptions,
  scenarios: string[],
): Promise<RequirementSetRun>;
