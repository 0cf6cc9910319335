import { describe, expect, it } from 'vitest';
import { GitignoreFile, maxRulesPerFile } from './gitignore-file.js';

describe('GitignoreFile', () => {
  it('follows git: names at any depth, anchored paths, directory-only rules, negation, escapes, comments', () => {
    const rules = new GitignoreFile(
      [
        '# comment',
        '',
        '*.log',
        '!keep.log',
        '/build',
        'docs/*.tmp',
        'out/',
        '\\#hash',
        'trailing   ',
        '**/deep/x',
      ].join('\n'),
    );
    expect(rules.test('a/b/c.log', false)).toBe('ignored');
    expect(rules.test('a/keep.log', false)).toBe('included');
    expect(rules.test('build', true)).toBe('ignored');
    expect(rules.test('src/build', true)).toBeUndefined();
    expect(rules.test('docs/a.tmp', false)).toBe('ignored');
    expect(rules.test('x/docs/a.tmp', false)).toBeUndefined();
    expect(rules.test('out', true)).toBe('ignored');
    expect(rules.test('out', false)).toBeUndefined();
    expect(rules.test('#hash', false)).toBe('ignored');
    expect(rules.test('trailing', false)).toBe('ignored');
    expect(rules.test('a/b/deep/x', false)).toBe('ignored');
    expect(rules.note).toBeUndefined();
  });

  it('keeps at most the capped rules with a note, and tests an entry in bounded time', () => {
    const text = Array.from({ length: 50_000 }, (_, index) => `*a*a*a*a*a*a*a*a*a*a*a*a*${index}`).join('\n');
    const rules = new GitignoreFile(text);
    expect(rules.note).toMatch(/rules were not applied/);
    expect(rules.note).toContain(`${maxRulesPerFile} rules`);
    // Positive control: the kept rules are applied, so the timing below measures real matching.
    expect(rules.test(`dir/${'a'.repeat(12)}0`, false)).toBe('ignored');
    const name = 'a'.repeat(250);
    const started = performance.now();
    for (let round = 0; round < 20; round++) expect(rules.test(`dir/${name}`, false)).toBeUndefined();
    // Bounded: a few ms per entry (9-14 ms at a load of 6 on two cores), where a backtracking regex per rule takes
    // seconds; 250 ms leaves room for a machine several times slower (it was 50 ms).
    expect((performance.now() - started) / 20).toBeLessThan(250);
  });

  it('treats regex-like characters as literals', () => {
    const rules = new GitignoreFile('((a+)+)c\n');
    expect(rules.test('((a+)+)c', false)).toBe('ignored');
    expect(rules.test('a'.repeat(40), false)).toBeUndefined();
  });
});
