import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalIndex } from './local-index.js';
import {
  anyTermExpression,
  highlightChunks,
  markdownSnippet,
  maxSnippetCharacters,
  searchIndex,
  tokenBound,
  toMatchExpression,
} from './search-query.js';

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

describe('searchIndex on one connection, query after query', () => {
  let directory: string;
  let index: LocalIndex;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'mcpkit-search-query-'));
    index = new LocalIndex({ directories: [directory], indexFile: ':memory:' });
  });
  afterEach(async () => {
    await index.close();
    await rm(directory, { recursive: true, force: true });
  });

  const search = (query: string) =>
    searchIndex(index.database, { query, limit: 10, offset: 0, roots: index.directories.roots });

  it('keeps nothing of one query in the next: a refused query, then two pages of hits from several files', async () => {
    const filler = (word: string, lines: number) =>
      Array.from({ length: lines }, (_, line) => `${word} filler ${line}`).join('\n');
    await writeFile(join(directory, 'first.md'), `${filler('plain', 3)}\nthe harbour pilot\n`);
    await writeFile(join(directory, 'second.md'), `${filler('plain', 7)}\na harbour crane\n`);
    await writeFile(join(directory, 'third.md'), `the glacier moves\n${filler('plain', 2)}\n`);
    await index.refreshAll();
    expect(() => search('"harbour')).toThrow(/not valid search syntax/);
    const harbour = search('harbour').hits;
    expect(harbour.map((hit) => [hit.path.slice(directory.length + 1), hit.line]).sort()).toEqual([
      ['first.md', 4],
      ['second.md', 8],
    ]);
    const pilot = harbour.find((hit) => hit.path.endsWith('first.md'));
    const crane = harbour.find((hit) => hit.path.endsWith('second.md'));
    expect(pilot?.snippet).toContain('the **harbour** pilot');
    expect(pilot?.snippet).not.toContain('crane');
    expect(crane?.snippet).toContain('a **harbour** crane');
    const glacier = search('glacier').hits;
    expect(glacier).toHaveLength(1);
    expect(glacier[0]).toMatchObject({ line: 1, snippet: expect.stringContaining('the **glacier** moves') });
    expect(glacier[0]?.snippet).not.toContain('harbour');
  });
});

describe('highlightChunks', () => {
  it('keeps a passage of the usual size whole', () => {
    expect(highlightChunks('one\ntwo', 32)).toEqual([{ text: 'one\ntwo', linesBefore: 0 }]);
  });

  it('keeps a long paragraph of ordinary words whole, so that AND, NEAR and phrases can join its ends', () => {
    const paragraph = `alpha ${'filler '.repeat(900)}beta`;
    expect(highlightChunks(paragraph, 32)).toEqual([{ text: paragraph, linesBefore: 0 }]);
    // The words of the title and path count too: snippet() is quadratic in all of a row's matches.
    expect(highlightChunks(paragraph, 32, 200).length).toBeGreaterThan(1);
  });

  it('cuts a long passage at white space, counts the lines before each chunk, and stops at maxChunks', () => {
    const body = `${'word '.repeat(500)}\n${'word '.repeat(500)}\n${'x'.repeat(5000)}`;
    const chunks = highlightChunks(body, 32);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(body);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(2000);
    expect(chunks[1]?.text.startsWith('word')).toBe(true);
    const last = chunks[chunks.length - 1];
    expect(last?.linesBefore).toBe(2);
    // A 1 MiB line: only its first 32 chunks are highlighted (a page of 50 such hits took 3.6 to 5.2 s with every chunk, 1.4 to 2.2 s with 32).
    expect(highlightChunks('x '.repeat(500_000), 32)).toHaveLength(32);
    // Over 16,000 characters, however few its words.
    expect(highlightChunks(`a ${'-'.repeat(20_000)} b`, 32).length).toBeGreaterThan(1);
  });
});

describe('tokenBound', () => {
  it('counts at least the words the tokenizer finds', () => {
    expect(tokenBound('The alpha—beta, 42 x')).toBe(5);
    expect(tokenBound('a\u0301a\u0301a')).toBe(5);
    expect(tokenBound('-- !! ..')).toBe(0);
  });
});

describe('anyTermExpression', () => {
  it('keeps the words and phrases of a query, without operators, column filters or NEAR distances', () => {
    expect(anyTermExpression('alpha AND beta')).toBe('"alpha" OR "beta"');
    expect(anyTermExpression('NEAR(alpha beta, 1000)')).toBe('"alpha" OR "beta"');
    expect(anyTermExpression('"beta release" AND vacat* NOT title:draft')).toBe(
      '"beta release" OR "vacat"* OR "draft"',
    );
    expect(anyTermExpression('{title path}: plan')).toBe('"plan"');
    expect(anyTermExpression('"" AND ()')).toBeUndefined();
  });
});

describe('markdownSnippet', () => {
  const open = '\uE000';
  const close = '\uE001';

  it('shows a short snippet whole with its matches in bold', () => {
    expect(markdownSnippet(`the ${open}harbour${close}\n pilot`)).toBe('the **harbour** pilot');
  });

  it('is at most 300 characters as shown, its ** and ellipses counted, with bold balanced, however dense the marks', () => {
    // Measured before the marks became **, the old cut returned about 451 characters for the densest of these.
    const cases = [
      `${open}a${close} `.repeat(200),
      `lead ${'x'.repeat(150)} ${`${open}ab${close} `.repeat(200)}`,
      `${open}${'needle'.repeat(100)}${close} tail`,
      `${'-'.repeat(1000)} ${open}needle${close} ${'-'.repeat(1000)}`,
      `${open}\u{1F600}${close} `.repeat(150),
    ];
    for (const marked of cases) {
      for (let lead = 0; lead < 6; lead++) {
        const snippet = markdownSnippet(`${'x '.repeat(lead)}${marked}`);
        expect(snippet.length).toBeLessThanOrEqual(maxSnippetCharacters);
        expect(snippet.length).toBeGreaterThan(maxSnippetCharacters - 10);
        expect((snippet.match(/\*\*/g) ?? []).length % 2).toBe(0);
        expect(snippet).not.toMatch(/\*\*\*\*…?$/);
        expect(snippet).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }
    }
  });
});
