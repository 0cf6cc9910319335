import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalIndex } from './local-index.js';
import { searchIndex, toMatchExpression } from './search-query.js';

describe('toMatchExpression', () => {
  it('turns a question into an OR of its meaningful words, quoted', () => {
    expect(toMatchExpression("What is our company's vacation policy?")).toBe('"company" OR "vacation" OR "policy"');
  });

  it('passes FTS5 syntax through unchanged', () => {
    for (const query of ['"exact phrase"', 'vacat*', 'fox AND dog', 'fox NOT dog', 'title:policy', '(a OR b) c']) {
      expect(toMatchExpression(query)).toBe(query);
    }
  });

  it('refuses a query with nothing to search for', () => {
    expect(() => toMatchExpression('?? !!')).toThrow(/no words/);
  });
});

describe('searchIndex', () => {
  let directory: string;
  let index: LocalIndex;
  const search = (query: string, extra: { pathGlob?: string; limit?: number; offset?: number } = {}) =>
    searchIndex(index.database, {
      query,
      limit: extra.limit ?? 10,
      offset: extra.offset ?? 0,
      roots: index.directories.roots,
      ...(extra.pathGlob ? { pathGlob: extra.pathGlob } : {}),
    });

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'mcpkit-search-query-'));
    const filler = Array.from({ length: 30 }, (_, line) => `filler line ${line}`).join('\n');
    await writeFile(join(directory, 'long.md'), `${filler}\nthe zebra crossing is here\n${filler}\n`);
    await writeFile(join(directory, 'dogs.md'), 'Dogs and cats.\nA fox jumps over the lazy dog.\n');
    await writeFile(join(directory, 'foxes.txt'), 'Only a fox here, running.\n');
    await writeFile(join(directory, 'zebra-guide.md'), 'A guide to animals of the savanna.\n');
    const chapters = Array.from(
      { length: 12 },
      (_, chapter) => `## Chapter ${chapter}\n\n${'Walrus facts. '.repeat(60)}\n`,
    );
    await writeFile(join(directory, 'walrus-book.md'), chapters.join('\n'));
    await writeFile(join(directory, 'walrus-note.md'), 'A short walrus note.\n');
    for (let page = 0; page < 25; page++) await writeFile(join(directory, `page-${page}.md`), `common word ${page}\n`);
    index = new LocalIndex({ directories: [directory], indexFile: ':memory:' });
    await index.refreshAll();
  });
  afterAll(async () => {
    await index.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('points at the line of the match, not the start of the passage', () => {
    const [hit] = search('zebra crossing').hits.filter((found) => found.path.endsWith('long.md'));
    expect(hit?.line).toBe(31);
    expect(hit?.snippet).toContain('**zebra** **crossing**');
  });

  it('boosts a match in the path above one in the text', () => {
    expect(search('zebra').hits[0]?.path).toMatch(/zebra-guide\.md$/);
  });

  it('supports phrases, prefixes and NOT', () => {
    expect(search('"lazy dog"').hits.map((hit) => hit.path)).toEqual([join(directory, 'dogs.md')]);
    expect(search('savan*').hits.map((hit) => hit.path)).toEqual([join(directory, 'zebra-guide.md')]);
    expect(search('fox NOT dog').hits.map((hit) => hit.path)).toEqual([join(directory, 'foxes.txt')]);
  });

  it('shows at most three passages of one document, so other documents still make the page', () => {
    const paths = search('walrus', { limit: 10 }).hits.map((hit) => hit.path);
    expect(paths.filter((path) => path.endsWith('walrus-book.md'))).toHaveLength(3);
    expect(paths).toContain(join(directory, 'walrus-note.md'));
  });

  it('filters by path glob', () => {
    expect(search('fox', { pathGlob: '*.txt' }).hits.map((hit) => hit.path)).toEqual([join(directory, 'foxes.txt')]);
    expect(search('fox', { pathGlob: 'nothing/**' }).hits).toEqual([]);
  });

  it('pages through results without repeats', () => {
    const first = search('common', { limit: 10 });
    const second = search('common', { limit: 10, offset: 10 });
    const third = search('common', { limit: 10, offset: 20 });
    expect(first.more).toBe(true);
    expect(third.more).toBe(false);
    const all = [...first.hits, ...second.hits, ...third.hits].map((hit) => hit.path);
    expect(new Set(all).size).toBe(25);
  });

  it('turns FTS5 syntax errors into one readable sentence', () => {
    for (const query of ['"unterminated', 'fox AND', 'nosuchcolumn:fox OR (', 'NEAR(fox']) {
      expect(() => search(query)).toThrow(/is not valid search syntax/);
    }
  });
});
