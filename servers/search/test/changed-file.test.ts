import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, onTestFinished, vi } from 'vitest';
import { LocalIndex } from '../src/local-index/local-index.js';
import { changedFileSnippet, searchIndex } from '../src/local-index/search-query.js';

let directory: string;
let index: LocalIndex;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcpkit-search-changed-'));
  index = new LocalIndex({ directories: [directory], indexFile: join(directory, '.index.sqlite') });
});
afterEach(async () => {
  await index.close();
  await rm(directory, { recursive: true, force: true });
});

const filler = (lines: number) => Array.from({ length: lines }, (_, line) => `filler line ${line}`).join('\n');

it('a file edited since it was indexed is indexed again before its hit is shown: the line and snippet are new', async () => {
  const file = join(directory, 'notes.md');
  await writeFile(file, `${filler(5)}\nthe zebra crossing\n`);
  await index.refreshAll();
  // Not watched: only the search can notice. The match moves down 20 lines and its words change.
  await writeFile(file, `${filler(25)}\nthe zebra crossing is closed\n`);
  const { hits } = await index.search({ query: 'zebra', limit: 10, offset: 0 });
  expect(hits).toHaveLength(1);
  expect(hits[0]?.line).toBe(26);
  expect(hits[0]?.snippet).toContain('**zebra** crossing is closed');
  expect(hits[0]?.changed).toBeUndefined();
});

it('a same-size edit with the old mtime is caught by the digest and never shows text the ranking did not see', async () => {
  const file = join(directory, 'notes.md');
  await writeFile(file, 'the zebra crossing\n');
  const when = new Date('2024-01-01T00:00:00Z');
  await utimes(file, when, when);
  await index.refreshAll();
  await writeFile(file, 'the zebra crosswalk\n');
  await utimes(file, when, when);
  // Straight on the index, without the re-index that LocalIndex.search starts: the hit says the file changed.
  const [hit] = searchIndex(index.database, {
    query: 'zebra',
    limit: 10,
    offset: 0,
    roots: index.directories.roots,
  }).hits;
  expect(hit).toMatchObject({ path: file, changed: true, snippet: changedFileSnippet });
  expect(hit?.snippet).not.toContain('crosswalk');
});

it('a hit reads only its passage: an edit elsewhere in the file (same size and mtime) leaves it shown, one inside it does not', async () => {
  const file = join(directory, 'long.md');
  const paragraph = (word: string) =>
    `${Array.from({ length: 30 }, (_, line) => `${word} line ${line}`).join('\n')}\n\n`;
  const original = `${paragraph('alpha')}${paragraph('beta')}${paragraph('gamma')}`;
  await writeFile(file, original);
  const when = new Date('2024-01-01T00:00:00Z');
  await utimes(file, when, when);
  await index.refreshAll();
  expect(index.database.getDocument(file)?.spans).not.toBeNull();
  const search = (query: string) =>
    searchIndex(index.database, { query, limit: 10, offset: 0, roots: index.directories.roots }).hits;
  const [before] = search('gamma');
  expect(before?.snippet).toContain('**gamma** line');
  // The first passage's words change, same length, same mtime: the gamma passage's bytes are as indexed.
  await writeFile(file, original.replace('alpha line 1\n', 'ALPHA LINE 1\n'));
  await utimes(file, when, when);
  expect(search('gamma')[0]).toEqual(before);
  // Now the very line the hit points at: its passage's digest no longer matches.
  const lines = original.split('\n');
  const shown = (before?.line ?? 0) - 1;
  lines[shown] = (lines[shown] ?? '').toUpperCase();
  await writeFile(file, lines.join('\n'));
  await utimes(file, when, when);
  expect(search('gamma')[0]).toMatchObject({ path: file, changed: true, snippet: changedFileSnippet });
});

it('an HTML file is read whole again and checked by its digest (its passages are not stretches of the file)', async () => {
  const file = join(directory, 'page.html');
  await writeFile(file, '<html><title>Zebra</title><body><p>the zebra crossing</p></body></html>\n');
  const when = new Date('2024-01-01T00:00:00Z');
  await utimes(file, when, when);
  await index.refreshAll();
  expect(index.database.getDocument(file)?.spans).toBeNull();
  const search = () =>
    searchIndex(index.database, { query: 'crossing', limit: 10, offset: 0, roots: index.directories.roots }).hits;
  expect(search()[0]?.snippet).toContain('**crossing**');
  await writeFile(file, '<html><title>Zebra</title><body><p>the zebra crosswalk</p></body></html>\n');
  await utimes(file, when, when);
  expect(search()[0]).toMatchObject({ path: file, changed: true, snippet: changedFileSnippet });
});

it('many searches at once that meet one changed file index its folder again once, not once each', async () => {
  // In memory, each search's ranking runs within its call: all 20 meet the changed file before any refresh ends.
  const memory = new LocalIndex({ directories: [directory], indexFile: ':memory:' });
  onTestFinished(() => memory.close());
  const file = join(directory, 'notes.md');
  await writeFile(file, 'the zebra crossing\n');
  await memory.refreshAll();
  await writeFile(file, 'the zebra crossing is closed\n');
  const refresh = vi.spyOn(memory.indexer, 'refresh');
  // Before: each of the 20 queued its own walk of the folder (a changed file at the root walked the whole tree
  // 20 times over, and a racing writer kept that queue growing with every search).
  const pages = await Promise.all(
    Array.from({ length: 20 }, () => memory.search({ query: 'zebra', limit: 10, offset: 0 })),
  );
  expect(refresh).toHaveBeenCalledTimes(1);
  for (const page of pages) expect(page.hits[0]?.snippet).toContain('closed');
});
