import * as fs from 'node:fs';
import { mkdtemp, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PassageInput } from './index-database.js';
import { encodeSpans, passageSpans } from './passage-spans.js';
import { splitPassages } from './passages.js';
import { readStoredPassagesAt, type StoredText } from './stored-passages.js';

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, openSync: vi.fn(actual.openSync) };
});

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcpkit-stored-passages-'));
});
afterEach(async () => {
  vi.mocked(fs.openSync).mockClear();
  await rm(directory, { recursive: true, force: true });
});

const paragraph = (word: string) => `${Array.from({ length: 30 }, (_, line) => `${word} line ${line}`).join('\n')}\n\n`;
const when = new Date('2024-01-01T00:00:00Z');

/** Writes a file of three passages and returns what the indexer stores of it. */
async function indexedFile(
  name: string,
): Promise<{ stored: StoredText & { spans: Uint8Array }; passages: PassageInput[] }> {
  const path = join(directory, name);
  const text = `${paragraph('alpha')}${paragraph('beta')}${paragraph('gamma')}`;
  await writeFile(path, text);
  await utimes(path, when, when);
  const bytes = Buffer.from(text);
  const { passages } = splitPassages(text);
  const spans = passageSpans(bytes, passages);
  if (!spans || passages.length !== 3) throw new Error('the fixture should split into three spanned passages');
  const stats = await stat(path);
  return {
    stored: {
      path,
      size: stats.size,
      mtimeMs: Math.trunc(stats.mtimeMs),
      digest: Buffer.alloc(0),
      spans: encodeSpans(spans),
    },
    passages,
  };
}

describe('readStoredPassagesAt', () => {
  it('reads several passages of a file with one open and one check of the file', async () => {
    const { stored, passages } = await indexedFile('three.md');
    expect(readStoredPassagesAt(stored, [2, 0])).toEqual([passages[2], passages[0]]);
    expect(vi.mocked(fs.openSync)).toHaveBeenCalledTimes(1);
  });

  it('checks each passage by its own digest: an edit inside one (same size and mtime) marks that one only', async () => {
    const { stored, passages } = await indexedFile('edited.md');
    const text = `${paragraph('alpha')}${paragraph('beta')}${paragraph('gamma')}`.replace(
      'gamma line 29',
      'GAMMA line 29',
    );
    await writeFile(stored.path, text);
    await utimes(stored.path, when, when);
    const read = readStoredPassagesAt(stored, [0, 2]);
    expect(read).toEqual([passages[0], { changed: true }]);
  });

  it('reads every passage as changed when the file is no longer the one indexed', async () => {
    const { stored } = await indexedFile('moved.md');
    await rm(stored.path);
    await writeFile(join(directory, 'elsewhere.md'), `${paragraph('alpha')}${paragraph('beta')}${paragraph('gamma')}`);
    await symlink(join(directory, 'elsewhere.md'), stored.path);
    expect(readStoredPassagesAt(stored, [0, 1, 2])).toEqual([{ changed: true }, { changed: true }, { changed: true }]);
  });

  it('reads an index past the stored spans as changed without opening the file for it alone', async () => {
    const { stored, passages } = await indexedFile('short.md');
    expect(readStoredPassagesAt(stored, [7])).toEqual([{ changed: true }]);
    expect(vi.mocked(fs.openSync)).not.toHaveBeenCalled();
    expect(readStoredPassagesAt(stored, [1, 7])).toEqual([passages[1], { changed: true }]);
  });
});
