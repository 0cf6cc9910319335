import { describe, expect, it } from 'vitest';
import { contentMatcher } from './content-search.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('contentMatcher', () => {
  it('searches literals as bytes, with and without case', () => {
    const exact = contentMatcher('a.b', { literal: true, ignoreCase: false });
    expect(exact.mayMatch(bytes('xx a.b yy'))).toBe(true);
    expect(exact.mayMatch(bytes('xx aXb yy'))).toBe(false);
    const loose = contentMatcher('Héllo', { literal: true, ignoreCase: true });
    expect(loose.mayMatch(bytes('say hÉllo'))).toBe(true);
    expect(loose.matchesLine('HÉLLO there')).toBe(true);
  });

  it('treats a pattern without metacharacters as a literal', () => {
    const plain = contentMatcher('needle', { literal: false, ignoreCase: false });
    expect(plain.mayMatch(bytes('a needle'))).toBe(true);
    expect(plain.matchesLine('no match')).toBe(false);
  });

  it('uses RE2 syntax for regular expressions, per line with ^ and $', () => {
    const anchored = contentMatcher('^import .+;$', { literal: false, ignoreCase: false });
    expect(anchored.mayMatch(bytes('const a = 1;\nimport x from "y";\n'))).toBe(true);
    expect(anchored.matchesLine('  import x;')).toBe(false);
    expect(contentMatcher('NEEDLE\\d', { literal: false, ignoreCase: true }).matchesLine('a needle7')).toBe(true);
  });

  it('runs a catastrophic-backtracking pattern in linear time', () => {
    const evil = contentMatcher('(a+)+$', { literal: false, ignoreCase: false });
    const input = `${'a'.repeat(50_000)}!`;
    const started = performance.now();
    expect(evil.matchesLine(input)).toBe(false); // exponential time in a backtracking engine
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses an invalid expression with a sentence that suggests literal', () => {
    expect(() => contentMatcher('(open', { literal: false, ignoreCase: false })).toThrow(/literal: true/);
    expect(() => contentMatcher('a(?=b)', { literal: false, ignoreCase: false })).toThrow(/RE2 syntax/);
  });

  it('refuses a pattern whose program or text is too large, and accepts ordinary ones', () => {
    const regex = { literal: false, ignoreCase: false };
    expect(() => contentMatcher('\\w{1000}\\w{1000}', regex)).toThrow(/2002 RE2 instructions, more than the 1000/);
    expect(() => contentMatcher('x'.repeat(1_001), { literal: true, ignoreCase: false })).toThrow(/at most 1000/);
    expect(() => contentMatcher('[0-9a-f]{64}|(foo|bar)\\s+\\w+\\(', regex)).not.toThrow();
  });
});
