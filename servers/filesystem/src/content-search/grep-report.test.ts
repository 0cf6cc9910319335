import { describe, expect, it } from 'vitest';
import { GrepReport } from './grep-report.js';

const file = { relative: 'a.txt', path: '/r/a.txt' };
const text = ['hit 1', 'x', 'x', 'x', 'x', 'hit 6', 'hit 7', 'y', `hit ${'z'.repeat(500)}`].join('\n');
const scanned = { text, matches: [0, 5, 6, 8] };

describe('GrepReport', () => {
  it('prints the file once, matches with context, and separates distant groups', () => {
    const report = new GrepReport({ cap: 100, budget: 100_000, contextLines: 1 });
    report.add(file, scanned);
    const out = report.text(() => 'unused').split('\n');
    expect(out.slice(0, 8)).toEqual(['/r/a.txt', '1: hit 1', '2- x', '--', '5- x', '6: hit 6', '7: hit 7', '8- y']);
    expect(out[8]).toMatch(/^9: hit z+…$/);
    expect(out[8]?.length).toBeLessThan(420);
    expect(out.at(-1)).toBe('[4 matching lines in 1 files]');
  });

  it('stops at the cap with the line to continue from, and counts skipped files', () => {
    const report = new GrepReport({ cap: 2, budget: 100_000, contextLines: 0 });
    report.add({ relative: 'bin', path: '/r/bin' }, { skipped: 'binary' });
    expect(report.add(file, scanned)).toBe(false);
    expect(report.stop).toMatchObject({ after: 'a.txt', line: 6 });
    const out = report.text((stop) => `C${stop.line}`);
    expect(out).toContain('skipped files: 1 binary');
    expect(out).toContain('cursor="C6"');
    const resumed = new GrepReport({ cap: 100, budget: 100_000, contextLines: 0 });
    resumed.add(file, scanned, 6);
    expect(
      resumed
        .text(() => '')
        .split('\n')
        .slice(0, 3),
    ).toEqual(['/r/a.txt', '7: hit 7', expect.stringMatching(/^9:/)]);
  });

  it('says so when nothing matched', () => {
    const report = new GrepReport({ cap: 10, budget: 1_000, contextLines: 0 });
    report.add(file, null);
    expect(report.text(() => '')).toBe('No matches found (searched 1 files).');
  });
});
