import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchIndex } from '../src/search-index.js';
import { backends, indexedOn } from './backends.js';

describe.each(backends)('the query language, $name', (backend) => {
  let workspace: string;
  let directory: string;
  let index: SearchIndex;
  let close: (() => Promise<void>) | undefined;
  const search = (query: string, extra: { pathGlob?: string; limit?: number; offset?: number } = {}) =>
    index.search({
      query,
      limit: extra.limit ?? 10,
      offset: extra.offset ?? 0,
      ...(extra.pathGlob ? { pathGlob: extra.pathGlob } : {}),
    });
  const shown = (relative: string) => backend.shownPath(directory, relative);
  const paths = async (query: string, extra: { pathGlob?: string } = {}) =>
    (await search(query, extra)).hits.map((hit) => hit.path);

  beforeAll(async () => {
    if (backend.skipReason) return;
    workspace = await mkdtemp(join(tmpdir(), 'mcpkit-search-language-'));
    directory = join(workspace, 'notes');
    await mkdir(directory);
    const filler = Array.from({ length: 30 }, (_, line) => `filler line ${line}`).join('\n');
    await writeFile(join(directory, 'long.md'), `${filler}\nthe zebra crossing is here\n${filler}\n`);
    await writeFile(join(directory, 'dogs.md'), 'Dogs and cats.\nA fox jumps over the lazy dog.\n');
    await writeFile(join(directory, 'foxes.txt'), 'Only a fox here, running.\n');
    await writeFile(join(directory, 'zebra-guide.md'), 'A guide to animals of the savanna.\n');
    await writeFile(join(directory, 'titled.md'), '# Harbour Pilots\n\nShips wait outside.\n');
    await writeFile(join(directory, 'mentions.md'), 'The harbour is closed on Sundays.\n');
    const chapters = Array.from(
      { length: 12 },
      (_, chapter) => `## Chapter ${chapter}\n\n${'Walrus facts. '.repeat(60)}\n`,
    );
    await writeFile(join(directory, 'walrus-book.md'), chapters.join('\n'));
    await writeFile(join(directory, 'walrus-note.md'), 'A short walrus note.\n');
    for (let page = 0; page < 25; page++) await writeFile(join(directory, `page-${page}.md`), `common word ${page}\n`);
    ({ index, close } = await indexedOn(backend, [directory]));
  });
  afterAll(async () => {
    await close?.();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });
  const test = it.skipIf(backend.skipReason);

  test('points at the line of the match, not the start of the passage', async () => {
    const [hit] = (await search('zebra crossing')).hits.filter((found) => found.path.endsWith('long.md'));
    expect(hit?.line).toBe(31);
    expect(hit?.snippet).toContain('**zebra** **crossing**');
  });

  test('boosts a match in the path above one in the text', async () => {
    expect((await search('zebra')).hits[0]?.path).toBe(shown('zebra-guide.md'));
  });

  test('supports phrases, prefixes, NOT, AND, OR, groups and title:', async () => {
    expect(await paths('"lazy dog"')).toEqual([shown('dogs.md')]);
    expect(await paths('savan*')).toEqual([shown('zebra-guide.md')]);
    expect(await paths('fox NOT dog')).toEqual([shown('foxes.txt')]);
    expect(await paths('fox AND cats')).toEqual([shown('dogs.md')]);
    expect((await paths('savanna OR lazy')).sort()).toEqual([shown('dogs.md'), shown('zebra-guide.md')].sort());
    expect(await paths('(savanna OR lazy) AND cats')).toEqual([shown('dogs.md')]);
    expect(await paths('title:harbour')).toEqual([shown('titled.md')]);
    expect((await paths('harbour')).sort()).toEqual([shown('mentions.md'), shown('titled.md')].sort());
  });

  test('stems words as the index does: a question finds other forms of its words', async () => {
    expect(await paths('Which foxes run?')).toContain(shown('foxes.txt'));
  });

  test('shows at most three passages of one document, so other documents still make the page', async () => {
    const found = await paths('walrus');
    expect(found.filter((path) => path.endsWith('walrus-book.md'))).toHaveLength(3);
    expect(found).toContain(shown('walrus-note.md'));
  });

  test('filters by path glob', async () => {
    expect(await paths('fox', { pathGlob: '*.txt' })).toEqual([shown('foxes.txt')]);
    expect(await paths('fox', { pathGlob: 'nothing/**' })).toEqual([]);
  });

  test('pages through results without repeats', async () => {
    const first = await search('common', { limit: 10 });
    const second = await search('common', { limit: 10, offset: 10 });
    const third = await search('common', { limit: 10, offset: 20 });
    expect(first.more).toBe(true);
    expect(third.more).toBe(false);
    const all = [...first.hits, ...second.hits, ...third.hits].map((hit) => hit.path);
    expect(new Set(all).size).toBe(25);
  });

  test('turns syntax errors into one readable sentence', async () => {
    // A NEAR distance that is not a whole number failed as an internal error on SQLite (FTS5's "expected integer").
    for (const query of ['"unterminated', 'fox AND', 'nosuchcolumn:fox OR (', 'NEAR(fox', 'NEAR(fox dog, 1e9)']) {
      await expect(search(query), query).rejects.toThrow(/is not valid search syntax/);
    }
  });

  test('refuses a query with no words in one sentence', async () => {
    await expect(search('?? !!')).rejects.toThrow(/no words/);
  });
});
