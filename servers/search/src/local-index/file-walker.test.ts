import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AllowedDirectories } from '../allowed-directories.js';
import { walkFiles } from './file-walker.js';

let base: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-walk-'));
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

it('walks in path order: a folder in name order (a folder named as its name and a separator), then its folders depth first', async () => {
  // Created out of order, so the directory's own order (creation or hash) is not the answer by chance.
  for (const folder of ['c/d', 'a', 'a-b', 'c/b']) mkdirSync(join(base, folder), { recursive: true });
  for (const file of ['b.md', 'c/d/e.md', 'a/z.md', 'a.md', 'a-b/y.md', 'c/b/x.md', 'c/a.md', 'a/m.md']) {
    writeFileSync(join(base, file), 'text\n');
  }
  const root = new AllowedDirectories([base]).roots[0] as string;
  const walked: string[][] = [];
  for await (const files of walkFiles(root, root, { maxFileSize: 1024 })) {
    walked.push(files.map((file) => relative(root, file.path)));
  }
  expect(walked).toEqual([
    ['a.md', 'b.md'],
    ['a-b/y.md'],
    ['a/m.md', 'a/z.md'],
    ['c/a.md'],
    ['c/b/x.md'],
    ['c/d/e.md'],
  ]);
});
