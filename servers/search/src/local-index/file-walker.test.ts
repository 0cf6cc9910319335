import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AllowedDirectories } from '../allowed-directories.js';
import { walkFiles, walkFolders } from './file-walker.js';

let base: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-walk-'));
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

it('walks in path order: entries by name (a folder as its name and a separator), a folder where it sorts, depth first', async () => {
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
    ['a-b/y.md'],
    ['a.md'],
    ['a/m.md', 'a/z.md'],
    ['b.md'],
    ['c/a.md'],
    ['c/b/x.md'],
    ['c/d/e.md'],
  ]);
});

it('walks in the order SQLite sorts the paths, characters above U+FFFF included', async () => {
  // JavaScript's own order puts the emoji (a surrogate pair) before the full-width letters; SQLite puts it after.
  for (const folder of ['\u{FF21}', '\u{1F600}', 'a\u{1F600}', 'a\u{FF21}']) mkdirSync(join(base, folder));
  for (const file of [
    '\u{FF21}.md',
    '\u{1F600}.md',
    '\u{FF21}/x.md',
    '\u{1F600}/y.md',
    'a\u{1F600}/1.md',
    'a\u{FF21}/2.md',
    'a.md',
  ]) {
    writeFileSync(join(base, file), 'text\n');
  }
  const root = new AllowedDirectories([base]).roots[0] as string;
  const walked: string[] = [];
  for await (const files of walkFiles(root, root, { maxFileSize: 1024 }))
    walked.push(...files.map((file) => file.path));
  const database = new Database(':memory:');
  database.exec('CREATE TABLE paths (path TEXT)');
  for (const path of walked) database.prepare('INSERT INTO paths VALUES (?)').run(path);
  const sorted = database.prepare('SELECT path FROM paths ORDER BY path').pluck().all();
  database.close();
  expect(walked).toHaveLength(7);
  expect(walked).toEqual(sorted);
});

// Linux takes any bytes in a name; a file system that refuses names that are not UTF-8 (macOS) has no such aliases.
it.runIf(process.platform === 'linux')(
  'walks a path once when names that are not UTF-8 read as it (aliases at every level multiplied the walk)',
  async ({ skip }) => {
    try {
      mkdirSync(Buffer.concat([Buffer.from(`${base}/`), Buffer.from([0xfe])]));
    } catch (error) {
      // A file system that refuses such names (ZFS with utf8only) has no aliases to walk.
      if ((error as NodeJS.ErrnoException).code === 'EILSEQ') skip('names that are not UTF-8 are refused here');
      throw error;
    }
    // Each level: a real folder named U+FFFD and three folders whose one-byte names (not UTF-8) read as U+FFFD too, so
    // each names the real one; a file aliased the same way beside the leaf. Walked per entry: 5 x 4 x 4 leaves.
    let folder = base;
    for (let level = 0; level < 3; level++) {
      for (const byte of [0x80, 0x81, 0xff]) mkdirSync(Buffer.concat([Buffer.from(`${folder}/`), Buffer.from([byte])]));
      folder = join(folder, '\u{FFFD}');
      mkdirSync(folder);
    }
    writeFileSync(join(folder, '\u{FFFD}.md'), 'text\n');
    writeFileSync(Buffer.concat([Buffer.from(`${folder}/`), Buffer.from([0xfe]), Buffer.from('.md')]), 'alias\n');
    const root = new AllowedDirectories([base]).roots[0] as string;
    const walked: string[] = [];
    for await (const files of walkFiles(root, root, { maxFileSize: 1024 }))
      walked.push(...files.map((file) => relative(root, file.path)));
    expect(walked).toEqual([join('\u{FFFD}', '\u{FFFD}', '\u{FFFD}', '\u{FFFD}.md')]);
    const folders: string[] = [];
    for await (const path of walkFolders(root, root)) folders.push(path);
    expect(folders).toHaveLength(4);
  },
);

// Linux: names that are not UTF-8, and /proc/self/fd (elsewhere the walk checks a folder just before listing it, and
// a parent swapped after that check is followed).
it.runIf(process.platform === 'linux')(
  'never lists a folder through a link: one in its place under a name that is not UTF-8, or a parent swapped mid-walk',
  async () => {
    mkdirSync(join(base, 'served', 'b', 'c'), { recursive: true });
    mkdirSync(join(base, 'outside', 'c'), { recursive: true });
    writeFileSync(join(base, 'outside', 'secret.md'), 'secret\n');
    writeFileSync(join(base, 'outside', 'c', 'secret.md'), 'secret\n');
    writeFileSync(join(base, 'served', 'b', 'a.md'), 'text\n');
    writeFileSync(join(base, 'served', 'b', 'c', 'kept.md'), 'text\n');
    const root = new AllowedDirectories([join(base, 'served')]).roots[0] as string;
    const outside = new AllowedDirectories([join(base, 'outside')]).roots[0] as string;
    // A link named U+FFFD to the outside, and a folder whose name (one byte, not UTF-8) reads as the link's.
    symlinkSync(outside, join(root, '\u{FFFD}'));
    try {
      mkdirSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0xff])]));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EILSEQ') throw error; // refused here (ZFS utf8only): no alias
    }
    const walked: string[] = [];
    let swapped = false;
    for await (const files of walkFiles(root, root, { maxFileSize: 1024 })) {
      walked.push(...files.map((file) => file.path));
      // Once b/a.md is walked (b listed, b/c still to list), b becomes a link to the outside, which holds a c too.
      if (!swapped && walked.includes(join(root, 'b', 'a.md'))) {
        swapped = true;
        renameSync(join(root, 'b'), join(base, 'b-moved'));
        symlinkSync(outside, join(root, 'b'));
      }
    }
    expect(swapped).toBe(true);
    expect(walked).toEqual([join(root, 'b', 'a.md')]);
  },
);
