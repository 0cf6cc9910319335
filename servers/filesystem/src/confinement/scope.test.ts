import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listDirectoryEntries } from '../walking/directory-listing.js';
import { Scope } from './scope.js';

// The confinement's checks are synchronous system calls followed by one open. These tests make a hostile process's
// best move deterministic: the swap happens exactly between the last check and the open, through a wrapped openSync.
const between = vi.hoisted(() => ({ beforeOpen: undefined as ((path: string) => void) | undefined }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return {
    ...actual,
    openSync: (...args: Parameters<typeof actual.openSync>) => {
      const hook = between.beforeOpen;
      between.beforeOpen = undefined;
      hook?.(String(args[0]));
      return actual.openSync(...args);
    },
  };
});

const base = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), 'mcpkit-scope-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('Scope: a swap between the checks and the open', () => {
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  const scope = new Scope([root]);
  const refusing = new Scope([root], { hardLinks: 'refuse' });
  beforeEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
    fs.mkdirSync(join(root, 'swap'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(join(root, 'swap', 'file.txt'), 'inside\n');
    fs.writeFileSync(join(outside, 'file.txt'), 'SECRET\n');
  });
  afterEach(() => {
    between.beforeOpen = undefined;
  });
  const swapDirectoryForLink = () => {
    fs.renameSync(join(root, 'swap'), join(root, 'parked'));
    fs.symlinkSync(outside, join(root, 'swap'));
  };

  it('refuses a file whose parent became a link to outside after the real path was checked', async () => {
    between.beforeOpen = swapDirectoryForLink;
    await expect(scope.openFile(join(root, 'swap', 'file.txt'))).rejects.toThrow(/Access denied/);
    // Control: without the swap the same call reads the file inside.
    fs.rmSync(join(root, 'swap'));
    fs.renameSync(join(root, 'parked'), join(root, 'swap'));
    const opened = await scope.openFile(join(root, 'swap', 'file.txt'));
    await opened.handle.close();
    expect(opened.path).toBe(join(root, 'swap', 'file.txt'));
  });

  it('refuses a file that became a link after the checks (the open does not follow it)', async () => {
    between.beforeOpen = () => {
      fs.rmSync(join(root, 'swap', 'file.txt'));
      fs.symlinkSync(join(outside, 'file.txt'), join(root, 'swap', 'file.txt'));
    };
    await expect(scope.openFile(join(root, 'swap', 'file.txt'))).rejects.toThrow(/symbolic link loop|cannot be used/);
  });

  it('refuses a FIFO swapped in after the checks, without blocking on it', async () => {
    between.beforeOpen = () => {
      fs.rmSync(join(root, 'swap', 'file.txt'));
      execFileSync('mkfifo', [join(root, 'swap', 'file.txt')]);
    };
    const started = performance.now();
    await expect(scope.openFile(join(root, 'swap', 'file.txt'))).rejects.toThrow(/named pipe/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('judges hard links by the opened descriptor: a link made after the checks is refused', async () => {
    between.beforeOpen = () => fs.linkSync(join(root, 'swap', 'file.txt'), join(outside, 'second-name.txt'));
    await expect(refusing.openFile(join(root, 'swap', 'file.txt'))).rejects.toThrow(/2 hard links/);
  });

  it('does not list a directory that became a link after it was checked', async () => {
    between.beforeOpen = () => {
      fs.renameSync(join(root, 'swap'), join(root, 'parked'));
      fs.symlinkSync(outside, join(root, 'swap'));
    };
    await expect(listDirectoryEntries(scope, join(root, 'swap'))).rejects.toThrow(/not a directory/);
  });

  it('does not list a directory whose parent became a link to outside after it was checked', async () => {
    fs.mkdirSync(join(root, 'swap', 'inner'));
    fs.mkdirSync(join(outside, 'inner'));
    fs.writeFileSync(join(outside, 'inner', 'secret.txt'), 'SECRET\n');
    between.beforeOpen = swapDirectoryForLink;
    await expect(listDirectoryEntries(scope, join(root, 'swap', 'inner'))).rejects.toThrow(/Access denied/);
  });

  it('gives the sizes of the entries themselves: a link to a large file outside shows as a link', async () => {
    fs.writeFileSync(join(outside, 'large.bin'), Buffer.alloc(100_000));
    fs.symlinkSync(join(outside, 'large.bin'), join(root, 'swap', 'large.bin'));
    const { entries } = await listDirectoryEntries(scope, join(root, 'swap'), { stats: true });
    const link = entries.find((entry) => entry.name === 'large.bin');
    expect(link?.kind).toBe('symlink');
    expect(link?.stats?.isSymbolicLink()).toBe(true);
    expect(link?.stats?.size).toBeLessThan(1_000);
  });
});

describe('listDirectoryEntries', () => {
  it('lists a directory too large for one synchronous read, complete and in name order', async () => {
    const wide = join(base, 'wide');
    fs.mkdirSync(wide);
    // Long names make the directory's own size pass the synchronous limit on any filesystem that counts bytes.
    const names = Array.from({ length: 1_200 }, (_, index) => `${String(index).padStart(4, '0')}-${'n'.repeat(180)}`);
    for (const name of [...names].reverse()) fs.writeFileSync(join(wide, name), '');
    const { entries } = await listDirectoryEntries(new Scope([base]), wide, { stats: true });
    expect(entries.map((entry) => entry.name)).toEqual(names);
    expect(entries.every((entry) => entry.kind === 'file' && entry.stats?.size === 0)).toBe(true);
  });
});
