import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isIgnored, maxRulesPerFile, readIgnoreFile } from './ignore-rules.js';

let base: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-ignore-'));
  mkdirSync(join(base, 'folder'));
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('readIgnoreFile', () => {
  it('reads the rules of a folder and matches paths below it', () => {
    writeFileSync(join(base, 'folder', '.gitignore'), '# comment\n*.log\nbuild/\n');
    const rules = readIgnoreFile(join(base, 'folder'), 100);
    expect(rules?.count).toBe(2);
    const stack = rules ? [rules] : [];
    expect(isIgnored(stack, join(base, 'folder', 'a.log'), false)).toBe(true);
    expect(isIgnored(stack, join(base, 'folder', 'build'), true)).toBe(true);
    expect(isIgnored(stack, join(base, 'folder', 'a.md'), false)).toBe(false);
  });

  it('keeps at most the per-file cap and the room left, drops over-long rules, and says so once', () => {
    const lines = Array.from({ length: maxRulesPerFile + 500 }, (_, index) => `*.x${index}`);
    lines.unshift(`${'*a'.repeat(300)}`);
    writeFileSync(join(base, 'folder', '.gitignore'), lines.join('\n'));
    const notes: string[] = [];
    expect(readIgnoreFile(join(base, 'folder'), 10_000, (note) => notes.push(note))?.count).toBe(maxRulesPerFile);
    expect(readIgnoreFile(join(base, 'folder'), 20)?.count).toBe(20);
    expect(notes).toEqual([expect.stringMatching(/\.gitignore: 501 of 1501 rules were not applied/)]);
  });

  it('treats a FIFO or a link as no .gitignore, without blocking or following it', () => {
    execFileSync('mkfifo', [join(base, 'folder', '.gitignore')]);
    expect(readIgnoreFile(join(base, 'folder'), 100)).toBeUndefined();
    mkdirSync(join(base, 'other'));
    writeFileSync(join(base, 'outside-rules'), '*\n');
    symlinkSync(join(base, 'outside-rules'), join(base, 'other', '.gitignore'));
    expect(readIgnoreFile(join(base, 'other'), 100)).toBeUndefined();
  });
});
