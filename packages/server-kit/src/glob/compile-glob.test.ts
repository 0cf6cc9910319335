import { describe, expect, it } from 'vitest';
import { ToolError } from '../errors.js';
import { compileGlob } from './compile-glob.js';

function matches(pattern: string, path: string, dot = true): boolean {
  return compileGlob(pattern, { dot })(path);
}

describe('compileGlob', () => {
  it.each([
    ['*.ts', 'index.ts', true],
    ['*.ts', 'index.tsx', false],
    ['*.ts', 'src/index.ts', false],
    ['src/*.ts', 'src/index.ts', true],
    ['**/*.ts', 'index.ts', true],
    ['**/*.ts', 'a/b/c/index.ts', true],
    ['src/**', 'src/a/b', true],
    ['src/**/test/*.ts', 'src/test/x.ts', true],
    ['src/**/test/*.ts', 'src/a/b/test/x.ts', true],
    ['src/**/test/*.ts', 'src/a/b/tests/x.ts', false],
    ['file?.md', 'file1.md', true],
    ['file?.md', 'file10.md', false],
    ['[abc]*', 'banana', true],
    ['[!abc]*', 'banana', false],
    ['[a-c]x', 'bx', true],
    ['[a-c]x', 'dx', false],
    ['*.{js,ts}', 'a.ts', true],
    ['*.{js,ts}', 'a.md', false],
    ['{src,test}/**/*.{js,ts}', 'test/a/b.js', true],
    ['part{1..3}.txt', 'part2.txt', true],
    ['part{1..3}.txt', 'part4.txt', false],
    ['\\*.md', '*.md', true],
    ['\\*.md', 'a.md', false],
    ['(a|b)', '(a|b)', true],
    ['(a|b)', 'a', false],
    ['+(a)', 'a', false],
    ['{single}', '{single}', true],
    ['*report*.pdf', 'q3-report-final.pdf', true],
    ['*a*b*c*d*e', 'xaxbxcxdxe', true],
    ['notes.md', 'notes.md', true],
    ['src/notes.md', 'src/notes.md', true],
    ['src/', 'src', true],
    ['*.md', 'a/b.md', false],
  ])('%s against %s is %s', (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
  });

  it('leaves dot files alone unless asked, or the pattern names the dot', () => {
    expect(matches('*', '.env', false)).toBe(false);
    expect(matches('*', '.env', true)).toBe(true);
    expect(matches('.*', '.env', false)).toBe(true);
    expect(matches('**/*.ts', '.hidden/a.ts', false)).toBe(false);
    expect(matches('**/*.ts', '.hidden/a.ts', true)).toBe(true);
  });

  it('refuses patterns that are too long or expand too far, in one sentence', () => {
    expect(() => compileGlob('a'.repeat(257))).toThrow(ToolError);
    expect(() => compileGlob('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}')).toThrow(/expands to more than 64/);
    expect(() => compileGlob('x{1..100000}')).toThrow(/at most 64/);
  });

  it('matches hostile patterns against long names in bounded time', () => {
    const name = `${'a'.repeat(250)}b`;
    const hostile = [
      '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*c',
      `(${'a|'.repeat(40)}a)+c`,
      `${'?'.repeat(200)}*c`,
      `**/${'*a'.repeat(60)}/**/${'*a'.repeat(60)}`,
      '{*a*a*a*a*a*c,*a*a*a*a*a*d}{,}{,}{,}{,}{,}',
    ];
    for (const pattern of hostile) {
      const matcher = compileGlob(pattern, { dot: true });
      const started = performance.now();
      for (let round = 0; round < 20; round++) matcher(`${name}/${name}/${name}`);
      // At most 13 ms on a quiet machine; a backtracking matcher would take beyond any bound.
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});
