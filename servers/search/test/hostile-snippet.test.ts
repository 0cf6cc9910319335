import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach, expect, it, onTestFinished } from 'vitest';
import { LocalIndex } from '../src/local-index/local-index.js';
import { searchIndex } from '../src/local-index/search-query.js';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';

let directory: string;
let running: InMemoryServer | undefined;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcpkit-search-snippet-'));
  for (let note = 0; note < 10; note++) {
    await writeFile(join(directory, `note-${note}.md`), `A needle in note ${note}.\n`);
  }
});
afterEach(async () => {
  await running?.close();
  running = undefined;
  await rm(directory, { recursive: true, force: true });
});

type Hit = { path: string; title: string; snippet: string };

/** Searches for `query` and checks that every one of the 11 files made the page, each hit short. */
async function expectEveryFileShown(query = 'needle') {
  running = await startInMemoryServer({ directories: [directory] });
  const result = await running.client.callTool('search', { query, limit: 11 });
  expect(result.isError).toBeFalsy();
  const text = resultText(result);
  for (let note = 0; note < 10; note++) expect(text).toContain(`note-${note}.md`);
  const hits = (result.structuredContent as { results: Hit[] }).results;
  expect(hits).toHaveLength(11);
  for (const hit of hits) {
    expect(hit.snippet.length).toBeLessThanOrEqual(300);
    expect(hit.title.length).toBeLessThanOrEqual(400);
  }
  return hits;
}

it('a hit on a line of 100,000 separators gets a short snippet, so the other files still make the page', async () => {
  // FTS5's snippet() keeps the text between its tokens: this one line came back as a 100,000-character snippet,
  // which took the whole 20,000-character budget of the answer.
  await writeFile(join(directory, 'hostile.md'), `needle ${'-'.repeat(100_000)} needle\n`);
  const hits = await expectEveryFileShown();
  const hostile = hits.find((hit) => hit.path.endsWith('hostile.md'));
  expect(hostile?.snippet).toMatch(/^\*\*needle\*\*/);
});

it('a hit on a 100,000-character word matched by a prefix keeps its bold balanced when cut', async () => {
  await writeFile(join(directory, 'hostile.md'), `needle and ${'needlex'.repeat(15_000)}\n`);
  const hits = await expectEveryFileShown('needle*');
  const hostile = hits.find((hit) => hit.path.endsWith('hostile.md'));
  expect((hostile?.snippet.match(/\*\*/g) ?? []).length % 2).toBe(0);
});

it('an HTML file with a 140,000-character title shows a short title', async () => {
  await writeFile(join(directory, 'hostile.html'), `<title>${'needle '.repeat(20_000)}</title><p>needle</p>\n`);
  await expectEveryFileShown();
});

it("a file's own U+E000 and U+E001 characters neither fake bold matches nor move the hit's line", async () => {
  // The highlighting marks matches with these two private-use characters; a file that held them itself showed
  // **false matches** and pointed the hit at their line (the line with the most distinct matches).
  await writeFile(
    join(directory, 'hostile.md'),
    '\uE000alpha\uE001 \uE000beta\uE001 \uE000gamma\uE001\nfiller\nthe needle\n',
  );
  const hits = await expectEveryFileShown();
  const hostile = hits.find((hit) => hit.path.endsWith('hostile.md')) as Hit & { line: number };
  expect(hostile.line).toBe(3);
  expect(hostile.snippet).not.toContain('**alpha**');
  expect(hostile.snippet).toContain('**needle**');
});

it('a passage of 40,000 matches is highlighted in a bounded time (FTS5 snippet() is quadratic in them)', async () => {
  // One line is one passage however long. FTS5's snippet() took 3.9 s for 20,000 matches in one passage and four
  // times that for twice as many, in one native call that a search worker's deadline cannot stop; a 1 MiB line of
  // one-letter words would hold a thread for most of an hour.
  await writeFile(join(directory, 'hostile.md'), `${'needle '.repeat(40_000)}\n`);
  const index = new LocalIndex({ directories: [directory], indexFile: ':memory:' });
  onTestFinished(() => index.close());
  await index.refreshAll();
  const started = performance.now();
  const { hits } = searchIndex(index.database, {
    query: 'needle',
    limit: 11,
    offset: 0,
    roots: index.directories.roots,
  });
  expect(performance.now() - started).toBeLessThan(4000);
  const hostile = hits.find((hit) => hit.path.endsWith('hostile.md'));
  expect(hostile).toMatchObject({ line: 1 });
  expect(hostile?.snippet).toMatch(/^\*\*needle\*\* \*\*needle\*\*/);
});

it('a match far into a long line is still highlighted and its line found (the passage is cut into chunks)', async () => {
  const long = `${'word '.repeat(3000)}needle ${'word '.repeat(3000)}`;
  await writeFile(join(directory, 'hostile.md'), `first line\nsecond line\n${long}\n`);
  const index = new LocalIndex({ directories: [directory], indexFile: ':memory:' });
  onTestFinished(() => index.close());
  await index.refreshAll();
  const { hits } = searchIndex(index.database, {
    query: 'needle',
    limit: 11,
    offset: 0,
    roots: index.directories.roots,
  });
  const hostile = hits.find((hit) => hit.path.endsWith('hostile.md'));
  expect(hostile?.line).toBe(3);
  expect(hostile?.snippet).toMatch(/word \*\*needle\*\* word/);
});
