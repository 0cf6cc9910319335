import { sep } from 'node:path';
import { compileGlob, ToolError } from '@mcpkit/server-kit/task';
import type Database from 'better-sqlite3';
import { shownTitle } from '../shown-title.js';
import { passagesPerDocument, passageTokenizer, rankWeights } from './index-database.js';
import { perConnection } from './per-connection.js';
import { readStoredPassages, readStoredPassagesAt, type StoredPassage, type StoredText } from './stored-passages.js';
import { assertTermsBounded } from './term-bound.js';

/** One search hit: a passage of a document, pointed at by the line of its first match. */
export interface SearchHit {
  path: string;
  line: number;
  title: string;
  /** BM25 with the title/path boost; higher is better. */
  score: number;
  /** The best stretch of the passage with matches in **bold**. */
  snippet: string;
  /** True when the file changed since it was indexed: the hit shows neither snippet nor line (see `snippet`). */
  changed?: boolean;
}

/** A page of search hits. */
export interface SearchPage {
  hits: SearchHit[];
  /** True when more hits follow this page. */
  more: boolean;
}

/** Passages of one document shown in one result list at most. */
const maxPassagesPerDocument = 3;

/** Words too common to help ranking in a natural-language question. */
const stopWords = new Set(
  (
    'a an and are as at be by can do does for from has have how i in is it its me my of on or our should that the ' +
    'their there this to us was we what when where which who why will with you your'
  ).split(' '),
);

/** Whether the query uses FTS5 syntax on purpose: quotes, operators, prefix stars, groups, column filters. */
export function usesQuerySyntax(query: string): boolean {
  return /["*()^]|\b(AND|OR|NOT|NEAR)\b|\b(title|path|body)\s*:/.test(query);
}

/**
 * Turns what the model typed into an FTS5 expression. Queries written in FTS5 syntax pass through unchanged; plain
 * words (a question, a phrase without quotes) become an OR of the meaningful words, each quoted so that punctuation
 * cannot be read as syntax, and BM25 ranks the passages that match most of them first.
 */
export function toMatchExpression(query: string): string {
  if (usesQuerySyntax(query)) return query;
  const words = query
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/'s$/i, ''))
    .filter((word) => word.length > 0);
  const meaningful = words.filter((word) => !stopWords.has(word.toLowerCase()));
  const chosen = meaningful.length > 0 ? meaningful : words;
  if (chosen.length === 0) throw new ToolError('The search query has no words to search for; pass some keywords.');
  return [...new Set(chosen)].map((word) => `"${word.replace(/"/g, '')}"`).join(' OR ');
}

/** The sentence that refuses a query with a syntax error, whichever index found it. */
export function describeSyntaxError(query: string, error: unknown): ToolError {
  const detail = error instanceof Error ? error.message.replace(/^fts5: /, '') : String(error);
  return new ToolError(
    `The query ${JSON.stringify(query)} is not valid search syntax (${detail}). Use plain words, "exact phrases" in ` +
      'double quotes, prefix* terms, and AND / OR / NOT in capitals between terms.',
  );
}

/** What to search for and which page of the results to return. */
export interface SearchRequest {
  query: string;
  limit: number;
  offset: number;
  /** Only files whose path relative to its root matches this glob. */
  pathGlob?: string;
  roots: readonly string[];
}

/**
 * A SQL function called once per matching passage before it is scored: it does nothing, but it brings the thread back
 * into JavaScript between passages, where terminating a worker takes effect (inside one native call it cannot).
 */
const rowCheckpoint = 'search_row_checkpoint';
/** The temporary table that highlights the passages of one page of hits. */
const hitPassages = 'hit_passages';

/** A search connection's statements, its checkpoint function and its highlighting table, made on its first search. */
const searchStatements = perConnection((connection) => {
  connection.function(rowCheckpoint, { deterministic: false }, (_rowid: unknown) => 1);
  connection.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${hitPassages} USING fts5(title, path, body, tokenize = '${passageTokenizer}')`,
  );
  return {
    documentOf: connection.prepare(
      `SELECT path, title, size, mtime_ms AS mtimeMs, digest, spans FROM documents WHERE id = ?`,
    ),
    // The same BM25 as FTS5's `ORDER BY rank`, written out so that SQLite scores row by row through the checkpoint
    // (FTS5's own rank sort scores every match inside one native call).
    ranked: connection.prepare(
      `SELECT rowid, bm25(passages, ${rankWeights.title}, ${rankWeights.path}, ${rankWeights.body}) AS rank
       FROM passages WHERE passages MATCH ? AND ${rowCheckpoint}(rowid) ORDER BY rank`,
    ),
    insertHit: connection.prepare(
      `INSERT INTO temp.${hitPassages} (rowid, title, path, body) VALUES (CAST(? AS INTEGER), ?, ?, ?)`,
    ),
    matchingChunks: connection
      .prepare(`SELECT rowid FROM temp.${hitPassages} WHERE ${hitPassages} MATCH ? ORDER BY rowid`)
      .pluck(),
    // Each column's marks are counted: FTS5's snippet() is quadratic in all of a row's matches.
    hitHighlights: connection.prepare(
      `SELECT rowid AS chunk, highlight(${hitPassages}, 0, char(57344), char(57345)) AS title,
              highlight(${hitPassages}, 1, char(57344), char(57345)) AS path,
              highlight(${hitPassages}, 2, char(57344), char(57345)) AS marked
       FROM temp.${hitPassages} WHERE ${hitPassages} MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
    ),
    hitSnippets: connection.prepare(
      `SELECT rowid AS chunk, snippet(${hitPassages}, 2, char(57344), char(57345), '…', 28) AS snippet
       FROM temp.${hitPassages} WHERE ${hitPassages} MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
    ),
    savepoint: connection.prepare(`SAVEPOINT ${hitPassages}`),
    rollback: connection.prepare(`ROLLBACK TO ${hitPassages}`),
    release: connection.prepare(`RELEASE ${hitPassages}`),
  };
});

/** Runs a search on the index's connection (or a read-only one) and returns one page of hits, best first. */
export function searchIndex(database: { readonly connection: Database.Database }, request: SearchRequest): SearchPage {
  const expression = toMatchExpression(request.query);
  const connection = database.connection;
  const statements = searchStatements(connection);
  // The kit's matcher costs at most pattern length times path length per path: no glob can stall the loop below.
  const matchesGlob = request.pathGlob ? compileGlob(request.pathGlob, { dot: true }) : undefined;
  const wanted = request.offset + request.limit + 1;
  type Document = StoredText & { title: string };
  type Row = { rowid: number; id: number; path: string; title: string; rank: number; stored: StoredText };
  const rows: Row[] = [];
  const documents = new Map<number, Document | undefined>();
  const perDocument = new Map<number, number>();
  try {
    assertTermsBounded(connection, expression, request.query);
    // Ranked rows meet the documents table one by one, only until the page is full.
    for (const row of statements.ranked.iterate(expression) as Iterable<{ rowid: number; rank: number }>) {
      const id = Math.floor(row.rowid / passagesPerDocument);
      const shown = perDocument.get(id) ?? 0;
      // A long document that matches everywhere would fill the page; later passages of it give way to others.
      if (shown >= maxPassagesPerDocument) continue;
      if (!documents.has(id)) documents.set(id, statements.documentOf.get(id) as Document | undefined);
      const document = documents.get(id);
      if (!document) continue;
      if (matchesGlob && !request.roots.some((root) => matchesGlob(relativeTo(root, document.path)))) continue;
      perDocument.set(id, shown + 1);
      // An index written before titles were cut at extraction keeps long ones for unchanged files.
      rows.push({ ...row, id, path: document.path, title: shownTitle(document.title), stored: document });
      if (rows.length >= wanted) break;
    }
  } catch (error) {
    if (
      error instanceof Error &&
      /fts5|syntax|no such column|unterminated|unknown special query|expected integer/i.test(error.message)
    ) {
      throw describeSyntaxError(request.query, error);
    }
    throw error;
  }
  const page = rows.slice(request.offset, request.offset + request.limit);
  return {
    hits: describeHits(statements, expression, page, request.roots),
    more: rows.length > request.offset + request.limit,
  };
}

/** What a hit shows when its file changed since it was indexed: no snippet or line from text that was not ranked. */
export const changedFileSnippet =
  '[This file changed since it was indexed, so no snippet or line is shown; it is being indexed again.]';

/**
 * The snippets and lines of a page of hits. The index keeps no text, so each hit's passage is read again from its
 * file (checked to be unchanged) and highlighted by a small temporary FTS5 table with the index's tokenizer: the
 * same snippet() and highlight() as a table that stored the text.
 */
function describeHits(
  statements: ReturnType<typeof searchStatements>,
  expression: string,
  page: readonly { rowid: number; id: number; path: string; title: string; rank: number; stored: StoredText }[],
  roots: readonly string[],
): SearchHit[] {
  const passages = storedPassagesOfPage(page);
  const chunksOf = new Map<number, HighlightChunk[]>();
  // The page's passages are written and highlighted inside a savepoint that is rolled back: nothing is committed,
  // so no FTS5 segment is written and nothing is left to delete.
  statements.savepoint.run();
  const found = new Map<number, { snippet: string; marked: string; linesBefore: number }>();
  try {
    page.forEach((row, index) => {
      const passage = passages.get(row.rowid);
      if (!passage || 'changed' in passage) return;
      const root = roots.find((candidate) =>
        row.path.startsWith(candidate.endsWith(sep) ? candidate : candidate + sep),
      );
      // The marks of a match are U+E000 and U+E001: the file's own are shown as U+FFFD, never read as marks.
      const path = root ? relativeTo(root, row.path) : row.path;
      const body = passage.body.replace(/[\uE000\uE001]/g, '\uFFFD');
      const chunks = highlightChunks(body, highlightChunksPerHit, tokenBound(row.title) + tokenBound(path));
      chunksOf.set(index, chunks);
      chunks.forEach((chunk, number) => {
        statements.insertHit.run(index * chunksPerHit + number, row.title, path, chunk.text);
      });
    });
    // Each hit's first chunk that matches is highlighted; one query for the whole page (a query per hit set FTS5's
    // matching up ten times over). A hit none of whose chunks matches the whole query (a phrase or AND whose terms lie
    // in two chunks, or past the chunks highlighted) takes its first chunk that holds any of the query's terms, so
    // that it still shows one in bold at its line.
    const firstChunks = new Map<number, { chunk: number; query: string }>();
    const findFirstChunks = (query: string) => {
      for (const chunk of statements.matchingChunks.iterate(query) as Iterable<number>) {
        const index = Math.floor(chunk / chunksPerHit);
        if (!firstChunks.has(index)) firstChunks.set(index, { chunk, query });
      }
    };
    findFirstChunks(expression);
    const anyTerm = firstChunks.size < chunksOf.size ? anyTermExpression(expression) : undefined;
    if (anyTerm) {
      try {
        findFirstChunks(anyTerm);
      } catch {
        // A query this reading of the expression got wrong: those hits show their passage's start, as before.
      }
    }
    const byQuery = new Map<string, number[]>();
    for (const { chunk, query } of firstChunks.values()) byQuery.set(query, [...(byQuery.get(query) ?? []), chunk]);
    for (const [query, chunks] of byQuery) {
      const highlighted = statements.hitHighlights.all(query, JSON.stringify(chunks)) as {
        chunk: number;
        title: string;
        path: string;
        marked: string;
      }[];
      // snippet() only where it is cheap; a chunk with more matches shows its best line from its first match.
      const snippetChunks: number[] = [];
      for (const row of highlighted) {
        const index = Math.floor(row.chunk / chunksPerHit);
        const linesBefore = chunksOf.get(index)?.[row.chunk % chunksPerHit]?.linesBefore ?? 0;
        const matches = countMarks(row.title) + countMarks(row.path) + countMarks(row.marked);
        found.set(index, { snippet: bestLine(row.marked), marked: row.marked, linesBefore });
        if (matches <= maxSnippetMatches) snippetChunks.push(row.chunk);
      }
      if (snippetChunks.length === 0) continue;
      const snippets = statements.hitSnippets.all(query, JSON.stringify(snippetChunks)) as {
        chunk: number;
        snippet: string;
      }[];
      for (const row of snippets) {
        const detail = found.get(Math.floor(row.chunk / chunksPerHit));
        if (detail) detail.snippet = row.snippet;
      }
    }
  } finally {
    statements.rollback.run();
    statements.release.run();
  }
  return page.map((row, index): SearchHit => {
    const score = Math.round(-row.rank * 1000) / 1000;
    const passage = passages.get(row.rowid) ?? { changed: true };
    if ('changed' in passage)
      return { path: row.path, line: 1, title: row.title, score, snippet: changedFileSnippet, changed: true };
    const detail = found.get(index);
    return {
      path: row.path,
      line: passage.line + (detail ? detail.linesBefore + bestLineOffset(detail.marked) : 0),
      title: row.title,
      score,
      snippet: markdownSnippet(detail?.snippet ?? passage.body.slice(0, 200).replace(/[\uE000\uE001]/g, '\uFFFD')),
    };
  });
}

/**
 * A passage is highlighted whole, and FTS5's snippet() chooses the stretch shown, when it is short or when it is at
 * most `wholePassageCharacters` long with at most `wholePassageTokens` words (with its title's and path's): ordinary
 * passages (about 1,200 characters) and long soft-wrapped paragraphs, whose AND, NEAR and phrase queries need terms
 * far apart. FTS5's snippet() is quadratic in a row's matches, in one native call that a search worker's deadline cannot
 * stop (500 matches: 4 ms, 1,000: 20 ms, 4,000: 0.22 s, 9,000: 0.95 s on this machine; one line of 40,000 took
 * 24.4 s), and highlight() grows with matches times length: a longer passage, or one with more words, is highlighted
 * in chunks of about `highlightChunkCharacters` (at most 1,000 words each), and its hit shows its first chunk that
 * matches the query, else its first chunk that holds any of the query's terms.
 */
const wholePassageCharacters = 16_000;
/**
 * Matches of a highlighted passage or chunk (its title, path and text together) up to which snippet() chooses the
 * stretch shown; with more, the hit shows its best line from a little before its first match (highlight() alone).
 */
const maxSnippetMatches = 300;
const wholePassageTokens = 1_000;
const highlightChunkCharacters = 2000;
/**
 * Chunks of one passage highlighted at most: its first 64 KB or so. A match past them (in a line longer than that)
 * shows the passage's start without bold, at the passage's first line; the hit stays. Highlighting whole 1 MiB lines
 * took 3.6 to 5.2 s for a page of 50 of them on a quiet machine, past the search's deadline on a loaded one.
 */
const highlightChunksPerHit = 32;
/** Rowids of the highlight table: `hit * chunksPerHit + chunk`. */
const chunksPerHit = 1 << 16;

/** A stretch of a passage highlighted on its own, and the line breaks of the passage before it. */
interface HighlightChunk {
  text: string;
  linesBefore: number;
}

/**
 * At least as many as the words the index's tokenizer finds in `text` (unicode61: runs of letters, numbers and
 * private-use characters; combining marks counted as runs of their own, whichever side of a word they are read on).
 */
export function tokenBound(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(/[\p{L}\p{N}\p{Co}]+|\p{M}+/gu)) count++;
  return count;
}

/**
 * A passage as one chunk when it is cheap to highlight whole (`otherTokens`: the words of its title and path), else
 * its first `maxChunks` chunks, each of at most `highlightChunkCharacters`, each cut at the last white space of its
 * second half (so words stay whole), else at the limit without splitting a surrogate pair.
 */
export function highlightChunks(body: string, maxChunks: number, otherTokens = 0): HighlightChunk[] {
  if (
    body.length <= highlightChunkCharacters ||
    (body.length <= wholePassageCharacters && otherTokens + tokenBound(body) <= wholePassageTokens)
  ) {
    return [{ text: body, linesBefore: 0 }];
  }
  const chunks: HighlightChunk[] = [];
  let linesBefore = 0;
  for (let start = 0; start < body.length && chunks.length < maxChunks; ) {
    let end = Math.min(start + highlightChunkCharacters, body.length);
    if (end < body.length) {
      let space = end;
      while (space > start + highlightChunkCharacters / 2 && !/\s/.test(body.charAt(space - 1))) space--;
      if (space > start + highlightChunkCharacters / 2) end = space;
      else if (/[\uD800-\uDBFF]/.test(body.charAt(end - 1))) end--;
    }
    const text = body.slice(start, end);
    chunks.push({ text, linesBefore });
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) linesBefore++;
    start = end;
  }
  return chunks;
}

/**
 * An FTS5 expression that matches any of the terms of `expression`: its "phrases" and words (a prefix star kept), with
 * operators, column filters and NEAR distances left out; undefined when it has none.
 */
export function anyTermExpression(expression: string): string | undefined {
  const terms = new Set<string>();
  const parts =
    /"((?:[^"]|"")*)"(\s*\*)?|-?\{[^}]*\}\s*:|[\p{L}\p{N}_]+\s*:|,\s*\d+|([\p{L}\p{N}_\u0080-\uFFFF]+)(\s*\*)?/gu;
  for (const part of expression.matchAll(parts)) {
    const [, phrase, phraseStar, word, wordStar] = part;
    if (phrase?.trim()) terms.add(`"${phrase}"${phraseStar ? '*' : ''}`);
    else if (word !== undefined && !/^(AND|OR|NOT|NEAR)$/.test(word)) terms.add(`"${word}"${wordStar ? '*' : ''}`);
  }
  return terms.size > 0 ? [...terms].join(' OR ') : undefined;
}

/** How many times `mark` (by default the mark that opens a match) occurs in `marked`. */
function countMarks(marked: string, mark = '\uE000'): number {
  let count = 0;
  for (let at = marked.indexOf(mark); at !== -1; at = marked.indexOf(mark, at + 1)) count++;
  return count;
}

/** The line of a highlighted passage that `bestLineOffset` picks. */
function bestLine(marked: string): string {
  return marked.split('\n')[bestLineOffset(marked)] ?? '';
}

/**
 * The passages of a page's hits as they were indexed, by rowid, each file opened and checked once for all of its
 * hits on the page: only their byte ranges read for a file indexed with spans, else the whole file read again.
 */
function storedPassagesOfPage(
  page: readonly { rowid: number; id: number; stored: StoredText }[],
): Map<number, StoredPassage> {
  const byDocument = new Map<number, { stored: StoredText; indexes: number[] }>();
  for (const row of page) {
    const document = byDocument.get(row.id) ?? { stored: row.stored, indexes: [] };
    document.indexes.push(row.rowid % passagesPerDocument);
    byDocument.set(row.id, document);
  }
  const passages = new Map<number, StoredPassage>();
  for (const [id, { stored, indexes }] of byDocument) {
    const { spans } = stored;
    let read: StoredPassage[];
    if (spans) read = readStoredPassagesAt({ ...stored, spans }, indexes);
    else {
      const file = readStoredPassages(stored);
      read = indexes.map((index) => ('passages' in file ? file.passages[index] : undefined) ?? { changed: true });
    }
    indexes.forEach((index, at) => {
      passages.set(id * passagesPerDocument + index, read[at] ?? { changed: true });
    });
  }
  return passages;
}

/**
 * Characters of a snippet at most. FTS5's snippet() and PostgreSQL's ts_headline() count words, and keep the text
 * between them whole: a line of 100,000 dashes between two matches came back as one snippet of that size, which
 * took the whole answer's budget from the other hits (50 hits of 20,000 characters leave about 400 each).
 */
export const maxSnippetCharacters = 300;
/** Characters kept before the first match when a snippet is cut. */
const leadCharacters = 80;

/**
 * A snippet with matches between U+E000 and U+E001 as one line of Markdown with the matches in bold, at most
 * `maxSnippetCharacters` long as shown (each mark counted as the two characters of its `**`, the ellipses too): from a
 * little before its first match, bold kept balanced. Measured before the marks became `**`, densely marked text
 * came out at about 451 characters.
 */
export function markdownSnippet(marked: string): string {
  // Control characters too: U+0085 (NEXT LINE) is not white space to JavaScript, and many readers break lines at it.
  const text = marked.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  const render = (part: string) => part.replace(/[\uE000\uE001]/g, '**');
  if (text.length + countMarks(text) + countMarks(text, '\uE001') <= maxSnippetCharacters) return render(text);
  const firstMatch = text.indexOf('\uE000');
  let start = Math.max(0, firstMatch - leadCharacters);
  // Never cut a surrogate pair in two.
  if (/[\uDC00-\uDFFF]/.test(text.charAt(start))) start++;
  const lead = start > 0 ? '…' : '';
  // Characters are taken while they fit with room kept for the closing ellipsis and, inside a match, its closing **.
  let shown = lead.length + 1;
  let open = false;
  let end = start;
  for (; end < text.length; end++) {
    const character = text.charAt(end);
    const mark = character === '\uE000' || character === '\uE001';
    const opens: boolean = mark ? character === '\uE000' : open;
    if (shown + (mark ? 2 : 1) + (opens ? 2 : 0) > maxSnippetCharacters) break;
    shown += mark ? 2 : 1;
    open = opens;
  }
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
  let cut = text.slice(start, end);
  // No empty match at the end, and a match cut open is closed.
  if (cut.endsWith('\uE000')) cut = cut.slice(0, -1);
  if (cut.lastIndexOf('\uE000') > cut.lastIndexOf('\uE001')) cut += '\uE001';
  return render(`${lead}${cut}${end < text.length ? '…' : ''}`);
}

/** The line of a highlighted passage with the most distinct matched terms (headings and later lines lose ties), from 0. */
export function bestLineOffset(marked: string): number {
  let best = 0;
  let bestCount = 0;
  marked.split('\n').forEach((line, index) => {
    const terms = new Set(Array.from(line.matchAll(/\uE000([^\uE001]*)\uE001/g), (match) => match[1]?.toLowerCase()));
    // A heading names the topic; the line under it that repeats the words is the one worth reading.
    const count = terms.size - (/^\s*#/.test(line) ? 0.5 : 0);
    if (count > bestCount) {
      best = index;
      bestCount = count;
    }
  });
  return best;
}

function relativeTo(root: string, path: string): string {
  if (!path.startsWith(root)) return path;
  return path
    .slice(root.length)
    .replace(/^[\\/]+/, '')
    .replace(/\\/g, '/');
}
