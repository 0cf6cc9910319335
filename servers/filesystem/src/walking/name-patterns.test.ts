import { describe, expect, it } from 'vitest';
import { globMatcher } from './name-patterns.js';

describe('globMatcher', () => {
  it('matches names at any depth when the pattern has no slash', () => {
    const matches = globMatcher(['*.ts', 'README*']);
    expect(matches('index.ts')).toBe(true);
    expect(matches('src/deep/a.ts')).toBe(true);
    expect(matches('docs/README.md')).toBe(true);
    expect(matches('src/a.tsx')).toBe(false);
  });

  it('matches relative paths when the pattern has a slash, including dotfiles and ./', () => {
    const matches = globMatcher(['src/**/*.test.ts', './.github/*']);
    expect(matches('src/a/b.test.ts')).toBe(true);
    expect(matches('lib/src/b.test.ts')).toBe(false);
    expect(matches('.github/ci.yml')).toBe(true);
  });

  it('matches nothing without patterns', () => {
    expect(globMatcher([])('anything')).toBe(false);
    expect(globMatcher(['  '])('anything')).toBe(false);
  });

  it('accepts any pattern up to 256 characters, matched in bounded time', () => {
    expect(() => globMatcher([`${'a'.repeat(300)}*`])).toThrow(/at most 256/);
    const many = globMatcher(['*?*?*?*?*?*?*?*?*?*?*?*.x', 'src/*a*a*a*a*.ts']);
    expect(many('deep/abcdefghijkl.x')).toBe(true);
    expect(many('src/xaxaxaxa.ts')).toBe(true);
    // Regex groups are literal characters, not groups that could backtrack.
    const grouped = globMatcher(['(a+)+b']);
    expect(grouped('(a+)+b')).toBe(true);
    expect(grouped('aaab')).toBe(false);
    const started = performance.now();
    const hostile = globMatcher([`${'*a'.repeat(100)}b`, '(a|aa)+(a|aa)+(a|aa)+$', '{a,b}{c,d}{e,f}*a*a*a*a*a*a*c']);
    const name = 'a'.repeat(255);
    // Positive control: the hostile patterns are matched, not dropped, so the timing below measures real matching.
    expect(hostile(`dir/${'a'.repeat(100)}b`)).toBe(true);
    for (let round = 0; round < 100; round++) expect(hostile(`dir/${name}`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('globMatcher fast paths', () => {
  it('matches plain names and *suffix patterns exactly like the general matcher', () => {
    const subjects = ['index.ts', '.ts', 'a.tsx', 'src/a.ts', 'README', 'readme', 'dir/README', '.env'];
    for (const pattern of ['*.ts', 'README', '*', '.env', 'src/a.ts', '*E']) {
      const general = (relative: string) => globMatcher([`${pattern}{,}`])(relative);
      for (const subject of subjects) {
        expect(globMatcher([pattern])(subject), `${pattern} on ${subject}`).toBe(general(subject));
      }
    }
    expect(() => globMatcher(['a'.repeat(300)])).toThrow(/at most 256/);
  });
});
