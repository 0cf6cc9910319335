import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchDirectories } from './file-watcher.js';

let root: string;
let stop: (() => void) | undefined;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-search-watch-')));
  await mkdir(join(root, 'docs'));
  await mkdir(join(root, 'node_modules'));
});
afterEach(async () => {
  stop?.();
  await rm(root, { recursive: true, force: true });
});

/** Starts a watcher and collects every folder it reports. */
function collect(perFolder: boolean) {
  const reported: string[] = [];
  const watcher = watchDirectories([root], {
    perFolder,
    quietMs: 50,
    ignoredPaths: new Set([join(root, 'index.sqlite')]),
    onChange: (folders) => reported.push(...folders),
  });
  stop = () => watcher.close();
  return reported;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/**
 * Writes `file` again every 200 ms (the watcher's quiet time is 50 ms) until the watcher reports `folder`: a watch
 * still attaching, which on a loaded machine can take longer than any fixed wait, misses a single write.
 */
const writeUntilReported = (reported: string[], file: string, folder: string) =>
  expect
    .poll(
      async () => {
        await writeFile(file, 'x');
        return reported;
      },
      { timeout: 10_000, interval: 200 },
    )
    .toContain(folder);

describe.each([
  ['one watch per folder', true],
  ['the recursive watch', false],
])('watchDirectories with %s', (_name, perFolder) => {
  it('reports the folder of a changed file, and folders created later', async () => {
    const reported = collect(perFolder);
    await writeUntilReported(reported, join(root, 'docs', 'a.md'), join(root, 'docs'));
    await mkdir(join(root, 'docs', 'new'));
    reported.length = 0;
    // Only writes inside the new folder report it (its creation reports its parent).
    await writeUntilReported(reported, join(root, 'docs', 'new', 'b.md'), join(root, 'docs', 'new'));
  });

  it('ignores the index file and node_modules', async () => {
    const reported = collect(perFolder);
    // Positive control: the watcher is attached and reports a change, so the silence below means something.
    await writeUntilReported(reported, join(root, 'docs', 'before.md'), join(root, 'docs'));
    await settle();
    reported.length = 0;
    await writeFile(join(root, 'index.sqlite'), 'x');
    await writeFile(join(root, 'node_modules', 'dep.js'), 'x');
    // A change written after the ignored ones is reported, so any report of theirs would have come by then.
    await writeFile(join(root, 'docs', 'after.md'), 'x');
    await expect.poll(() => reported, { timeout: 10_000 }).toContain(join(root, 'docs'));
    await settle();
    expect(reported.filter((folder) => folder !== join(root, 'docs'))).toEqual([]);
  });
});
