import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AllowedDirectories } from './allowed-directories.js';
import { readConfinedFile, readOpenedFile, readOpenedFileSync } from './confined-file.js';

let base: string;
let inside: string;
let directories: AllowedDirectories;
const limits = { maxBytes: 4096, tooLarge: (requested: string) => `${requested} is over the cap.` };

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mcpkit-search-confined-'));
  inside = join(base, 'inside');
  execFileSync('mkdir', ['-p', inside]);
  writeFileSync(join(base, 'secret.txt'), 'SECRET\n');
  writeFileSync(join(inside, 'note.txt'), 'inside\n');
  directories = new AllowedDirectories([inside]);
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('readConfinedFile', () => {
  it('reads a regular file inside and names its real path and root', async () => {
    const file = await readConfinedFile(directories, 'note.txt', limits);
    expect(file.bytes.toString()).toBe('inside\n');
    expect(file.path).toBe(join(directories.roots[0] as string, 'note.txt'));
    expect(file.root).toBe(directories.roots[0]);
  });

  it('refuses a link that leaves the directories, by path and when opened directly', async () => {
    symlinkSync(join(base, 'secret.txt'), join(inside, 'link.txt'));
    await expect(readConfinedFile(directories, 'link.txt', limits)).rejects.toThrow(/outside the indexed/);
    // The path the indexer found was a file; now it is a link: the no-follow open refuses it.
    await expect(readOpenedFile(directories, join(inside, 'link.txt'), 'link.txt', limits)).rejects.toThrow(
      /outside the indexed/,
    );
  });

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [join(inside, 'pipe.txt')]);
    const started = performance.now();
    await expect(readConfinedFile(directories, 'pipe.txt', limits)).rejects.toThrow(/named pipe \(FIFO\)/);
    // Swapped in after the walk: opened without blocking, refused on the descriptor's type.
    await expect(readOpenedFile(directories, join(inside, 'pipe.txt'), 'pipe.txt', limits)).rejects.toThrow(
      /named pipe \(FIFO\)/,
    );
    expect(performance.now() - started).toBeLessThan(5_000); // a read waiting for a writer would never end
  });

  it('refuses a file over the cap from its size, before reading any of it', async () => {
    truncateSync(join(inside, 'note.txt'), 1024 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    await expect(readConfinedFile(directories, 'note.txt', limits)).rejects.toThrow('note.txt is over the cap.');
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('never reads more than the cap plus one byte from a file whose size lies (it grew, or is a /proc file)', async () => {
    // /proc files report size 0 on fstat but hold more: the read itself must stop at the cap.
    const proc = new AllowedDirectories(['/proc/self']);
    const small = { maxBytes: 100, tooLarge: (requested: string) => `${requested} grew past the cap.` };
    await expect(readConfinedFile(proc, '/proc/self/maps', small)).rejects.toThrow(
      '/proc/self/maps grew past the cap.',
    );
    const whole = await readConfinedFile(proc, '/proc/self/maps', { ...small, maxBytes: 16 * 1024 * 1024 });
    expect(whole.bytes.byteLength).toBeGreaterThan(100);
  });

  it('refuses a directory with a sentence', async () => {
    await expect(readConfinedFile(directories, '.', limits)).rejects.toThrow(/is a directory; pass the path of a file/);
  });
});

describe('readOpenedFileSync (the indexer worker)', () => {
  it('reads a file inside and refuses a link, a FIFO and a file over the cap, as the promise version does', () => {
    const file = readOpenedFileSync(directories, join(inside, 'note.txt'), 'note.txt', limits);
    expect(file.bytes.toString()).toBe('inside\n');
    expect(file.root).toBe(directories.roots[0]);
    symlinkSync(join(base, 'secret.txt'), join(inside, 'link.txt'));
    expect(() => readOpenedFileSync(directories, join(inside, 'link.txt'), 'link.txt', limits)).toThrow(
      /outside the indexed/,
    );
    execFileSync('mkfifo', [join(inside, 'pipe.txt')]);
    const started = performance.now();
    expect(() => readOpenedFileSync(directories, join(inside, 'pipe.txt'), 'pipe.txt', limits)).toThrow(
      /named pipe \(FIFO\)/,
    );
    expect(performance.now() - started).toBeLessThan(5_000); // a read waiting for a writer would never end
    truncateSync(join(inside, 'note.txt'), 1024 * 1024 * 1024);
    expect(() => readOpenedFileSync(directories, join(inside, 'note.txt'), 'note.txt', limits)).toThrow(
      'note.txt is over the cap.',
    );
  });

  it('refuses a file reached through a linked folder that leaves the directories', () => {
    execFileSync('mkdir', ['-p', join(base, 'outside')]);
    writeFileSync(join(base, 'outside', 'secret.txt'), 'SECRET\n');
    symlinkSync(join(base, 'outside'), join(inside, 'folder'));
    // The final component is no link, so the no-follow open succeeds: the descriptor's own path must refuse it.
    expect(() =>
      readOpenedFileSync(directories, join(inside, 'folder', 'secret.txt'), 'folder/secret.txt', limits),
    ).toThrow(/outside the indexed/);
  });

  it('reads past a size that lies, never more than the cap plus one byte', () => {
    const proc = new AllowedDirectories(['/proc/self']);
    const small = { maxBytes: 100, tooLarge: (requested: string) => `${requested} grew past the cap.` };
    expect(() => readOpenedFileSync(proc, '/proc/self/maps', '/proc/self/maps', small)).toThrow(
      '/proc/self/maps grew past the cap.',
    );
    const whole = readOpenedFileSync(proc, '/proc/self/maps', '/proc/self/maps', { ...small, maxBytes: 1 << 24 });
    expect(whole.bytes.byteLength).toBeGreaterThan(100);
  });
});
