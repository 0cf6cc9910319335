import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ConformanceCheck,
  judgeRun,
  noResultsCheck,
  noSuccessCheck,
  readRunSummary,
  readScenarioResults,
} from '../../../scripts/tools/conformance-run.mjs';

// The judge behind both conformance tests (server and client mode), on made-up results.
const success = (id: string): ConformanceCheck => ({ id, status: 'SUCCESS' });
const failure = (id: string): ConformanceCheck => ({ id, status: 'FAILURE', errorMessage: `${id} broke` });
const warning = (id: string): ConformanceCheck => ({ id, status: 'WARNING', errorMessage: `${id} is doubtful` });

function judge(
  results: Record<string, ConformanceCheck[] | null>,
  baseline: { required?: Record<string, string>; notScored?: Record<string, string> },
  notScored: Record<string, string> = {},
) {
  return judgeRun(
    { results: new Map(Object.entries(results)), notScored: new Map(Object.entries(notScored)) },
    { required: baseline.required ?? {}, notScored: baseline.notScored ?? {} },
  );
}

describe('judgeRun', () => {
  it('passes a run whose failures are all listed, and lists passing and failing scenarios', () => {
    const verdict = judge(
      { ping: [success('ping')], caching: [failure('hints')], 'tasks-lifecycle': [failure('create')] },
      { required: { caching: 'needs SDK v2' }, notScored: { 'tasks-lifecycle': 'not built' } },
      { 'tasks-lifecycle': 'extension' },
    );
    expect(verdict).toEqual({
      regressions: [],
      regressed: [],
      stale: [],
      misplaced: [],
      passed: ['ping'],
      failed: ['caching', 'tasks-lifecycle'],
    });
  });

  it('reports an unlisted failure or warning as a regression, in a required or a not-scored scenario', () => {
    const verdict = judge(
      { ping: [success('ping'), warning('wire')], 'tasks-lifecycle': [failure('create')] },
      {},
      { 'tasks-lifecycle': 'extension' },
    );
    expect(verdict.regressions).toEqual([
      'required ping / wire: WARNING wire is doubtful',
      'notScored tasks-lifecycle / create: FAILURE create broke',
    ]);
    expect(verdict.regressed).toEqual(['ping', 'tasks-lifecycle']);
  });

  it('counts a scenario without results or without any successful check as failing', () => {
    const verdict = judge({ crashed: null, skipped: [{ id: 'later', status: 'SKIPPED' }] }, {});
    expect(verdict.regressions).toEqual([
      `required crashed / ${noResultsCheck}: the scenario wrote no checks.json`,
      `required skipped / ${noSuccessCheck}: no check succeeded (SKIPPED)`,
    ]);
  });

  it('reports an entry whose scenario or check passes now, or did not run, as stale', () => {
    const verdict = judge(
      { ping: [success('ping')], dns: [success('foreign-host'), failure('valid-host')] },
      { required: { ping: 'old reason', 'dns:foreign-host': 'old reason', 'dns:valid-host': 'v2', gone: 'old' } },
    );
    expect(verdict.regressions).toEqual([]);
    expect(verdict.stale).toEqual([
      'required ping: passes now; remove it from the baseline',
      'required dns:foreign-host: passes now (or did not run); remove it from the baseline',
      'required gone: no such scenario ran; remove it',
    ]);
  });

  it('excuses only the listed check of a scenario, so another failing check is a regression', () => {
    const verdict = judge(
      { dns: [failure('valid-host'), failure('foreign-host')] },
      { required: { 'dns:valid-host': 'v2' } },
    );
    expect(verdict.regressions).toEqual(['required dns / foreign-host: FAILURE foreign-host broke']);
  });

  it('reports an entry filed in the wrong section, or listed both whole and per check', () => {
    const verdict = judge(
      { 'tasks-lifecycle': [failure('create')], caching: [failure('hints')] },
      { required: { 'tasks-lifecycle': 'not built', caching: 'v2', 'caching:hints': 'v2' } },
      { 'tasks-lifecycle': 'extension' },
    );
    expect(verdict.misplaced).toEqual([
      'tasks-lifecycle is listed under required but the suite runs it as notScored',
      'caching:hints is redundant: the whole scenario caching is listed',
    ]);
  });
});

describe('reading a run', () => {
  it('reads the announced count and the not-scored scenarios from the output', () => {
    const output = [
      'Running requirements 2026-07-28 (50 scenarios) against http://127.0.0.1:3911/mcp',
      '✓ ping: 2 passed, 0 failed',
      'Not scored for 2026-07-28: 2 scenario(s) run, 1 failing. These do not affect conformance.',
      '  ✗ tasks-lifecycle (extension)',
      '  ✓ auth/dpop (extension)',
    ].join('\n');
    expect(readRunSummary(output)).toEqual({
      requirements: '2026-07-28',
      announced: 50,
      notScored: new Map([
        ['tasks-lifecycle', 'extension'],
        ['auth/dpop', 'extension'],
      ]),
    });
  });

  it('names server and client result folders by scenario, nested ones included, and marks a folder without checks', () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcpkit-conformance-results-'));
    try {
      const stamp = '2026-11-23T08-04-39-588Z';
      for (const folder of [`server-ping-${stamp}`, `server-crashed-${stamp}`, `auth/dpop-${stamp}`]) {
        mkdirSync(join(directory, folder), { recursive: true });
      }
      writeFileSync(join(directory, `server-ping-${stamp}`, 'checks.json'), JSON.stringify([success('ping')]));
      writeFileSync(join(directory, `auth/dpop-${stamp}`, 'checks.json'), JSON.stringify([failure('proof')]));
      expect(readScenarioResults(directory, 'server')).toEqual(
        new Map<string, ConformanceCheck[] | null>([
          ['auth/dpop', [failure('proof')]],
          ['crashed', null],
          ['ping', [success('ping')]],
        ]),
      );
      expect([...readScenarioResults(directory, 'client').keys()].sort()).toEqual([
        'auth/dpop',
        'server-crashed',
        'server-ping',
      ]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
