import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Scope } from '../confinement/scope.js';
import { IgnoreRules } from './ignore-rules.js';
import { type WalkEntry, walk, walkPause } from './walk.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-walk-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
for (const directory of ['a/b', 'c', 'node_modules/x', 'logs']) mkdirSync(join(root, directory), { recursive: true });
for (const file of [
  'a/b/one.txt',
  'a/two.txt',
  'c/three.txt',
  'node_modules/x/i.js',
  'logs/keep.log',
  'logs/drop.log',
]) {
  writeFileSync(join(root, file), file);
}
writeFileSync(join(root, '.gitignore'), '*.log\n');
writeFileSync(join(root, 'logs', '.gitignore'), '!keep.log\n');
symlinkSync(root, join(root, 'c', 'up'));
const scope = new Scope([root]);

const entries = (options: Partial<Parameters<typeof walk>[0]> = {}): WalkEntry[] =>
  [...walk({ root, scope, ...options })].filter((entry) => entry !== walkPause);
const relatives = (options: Partial<Parameters<typeof walk>[0]> = {}) =>
  entries(options).map((entry) => entry.relative);

describe('walk', () => {
  it('walks depth first in name order and reports links without following them', () => {
    expect(relatives()).toEqual([
      '.gitignore',
      'a',
      'a/b',
      'a/b/one.txt',
      'a/two.txt',
      'c',
      'c/three.txt',
      'c/up',
      'logs',
      'logs/.gitignore',
      'logs/drop.log',
      'logs/keep.log',
      'node_modules',
      'node_modules/x',
      'node_modules/x/i.js',
    ]);
    expect(entries().find((entry) => entry.relative === 'c/up')?.kind).toBe('symlink');
  });

  it('resumes strictly after a position, or at it, and stops at a depth', () => {
    expect(relatives({ after: 'a/b/one.txt' }).slice(0, 2)).toEqual(['a/two.txt', 'c']);
    expect(relatives({ after: 'a' }).slice(0, 1)).toEqual(['a/b']);
    expect(relatives({ after: 'a/two.txt', includeAfter: true })[0]).toBe('a/two.txt');
    expect(relatives({ maxDepth: 1 })).toEqual(['.gitignore', 'a', 'c', 'logs', 'node_modules']);
  });

  it('applies nested .gitignore files with re-includes and skips node_modules', () => {
    const ignored = relatives({ ignore: IgnoreRules.forRoot(root, root) });
    expect(ignored).toContain('logs/keep.log');
    expect(ignored).not.toContain('logs/drop.log');
    expect(ignored).not.toContain('node_modules');
  });

  it('reads the .gitignore of ancestors inside the allowed directory when walking below it', () => {
    const below = join(root, 'logs');
    const names = entries({ root: below, ignore: IgnoreRules.forRoot(root, below) }).map((entry) => entry.name);
    expect(names).toEqual(['.gitignore', 'keep.log']);
  });

  it('refuses a root outside the scope', () => {
    expect(() => [...walk({ root: tmpdir(), scope })]).toThrow(/outside/);
  });

  it('pauses while skipped entries take time, so the caller can share the loop', () => {
    const slowExclude = () => {
      const until = performance.now() + 4;
      while (performance.now() < until);
      return true;
    };
    const yielded = [...walk({ root, scope, exclude: slowExclude })];
    expect(yielded.length).toBeGreaterThan(0);
    expect(yielded.every((entry) => entry === walkPause)).toBe(true);
  });
});
