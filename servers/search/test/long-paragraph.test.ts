import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LocalIndex } from '../src/local-index/local-index.js';
import { searchIndex } from '../src/local-index/search-query.js';

// Soft-wrapped Markdown keeps a paragraph on one line, and a passage is as long as its longest line: a paragraph of
// 400 words is one passage of about 2,800 characters, whose terms lie far apart.
const filler = Array.from({ length: 400 }, (_, word) => `filler${word % 7}`).join(' ');
const paragraph = `The alpha project ${filler} ends with the beta release.`;

let directory: string;
let index: LocalIndex;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcpkit-search-paragraph-'));
  await writeFile(join(directory, 'notes.md'), `# Notes\n\nintro line\n\n${paragraph}\n`);
  index = new LocalIndex({ directories: [directory], indexFile: ':memory:' });
  await index.refreshAll();
});
afterEach(async () => {
  await index.close();
  await rm(directory, { recursive: true, force: true });
});

const search = (query: string) =>
  searchIndex(index.database, { query, limit: 10, offset: 0, roots: index.directories.roots }).hits;

it.each(['alpha AND beta', 'NEAR(alpha beta, 1000)', '"alpha project" AND "beta release"', 'alpha beta'])(
  '%s on a paragraph of 400 words on one line points at its line with the terms in bold',
  (query) => {
    const hits = search(query);
    expect(hits).toHaveLength(1);
    expect(hits[0]?.line).toBe(5);
    expect(hits[0]?.snippet).toMatch(/\*\*(alpha|beta)[a-z ]*\*\*/);
  },
);

it('a line past the highlighted 64 KB still shows a term of the query in bold at its line', async () => {
  // Only about the first 64 KB of a passage are highlighted: `beta` lies past them, so the whole query matches
  // nothing highlighted, and the hit is highlighted by any of its terms.
  await writeFile(join(directory, 'long.md'), `intro\n\nfirst alpha ${'word '.repeat(14_000)}beta\n`);
  await index.refreshAll();
  const hits = search('alpha AND beta').filter((hit) => hit.path.endsWith('long.md'));
  expect(hits).toHaveLength(1);
  expect(hits[0]?.line).toBe(3);
  expect(hits[0]?.snippet).toMatch(/first \*\*alpha\*\* word/);
});
