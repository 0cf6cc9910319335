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

  it('refuses globs whose matching could stall the server, and accepts ordinary ones', () => {
    expect(() => globMatcher(['*?*?*?*?*?*?*?*?*?*?*?*.x'])).toThrow(/at most 3 per segment/);
    expect(() => globMatcher(['src/*a*a*a*a*.ts'])).toThrow(/"\*a\*a\*a\*a\*\.ts"/);
    expect(() => globMatcher([`${'a'.repeat(300)}*`])).toThrow(/at most 256/);
    expect(() => globMatcher(['**/*report*.pdf', 'src/**/*.test.*', '*a*b*'])).not.toThrow();
  });
});
