import { sep } from 'node:path';
import { compileGlob, ToolError } from '@mcpkit/server-kit/task';
import type Database from 'better-sqlite3';
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
    hitDetails: connection.prepare(
      `SELECT rowid AS chunk, snippet(${hitPassages}, 2, char(57344), char(57345), '…', 28) AS snippet,
              highlight(${hitPassages}, 2, char(57344), char(57345)) AS marked
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
      rows.push({ ...row, id, path: document.path, title: document.title, stored: document });
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
      const chunks = highlightChunks(passage.body.replace(/[\uE000\uE001]/g, '\uFFFD'), highlightChunksPerHit);
      chunksOf.set(index, chunks);
      chunks.forEach((chunk, number) => {
        statements.insertHit.run(
          index * chunksPerHit + number,
          row.title,
          root ? relativeTo(root, row.path) : row.path,
          chunk.text,
        );
      });
    });
    // Each hit's first chunk that matches is highlighted; one query for the whole page (a query per hit set FTS5's
    // matching up ten times over).
    const firstChunks = new Map<number, number>();
    for (const chunk of statements.matchingChunks.iterate(expression) as Iterable<number>) {
      const index = Math.floor(chunk / chunksPerHit);
      if (!firstChunks.has(index)) firstChunks.set(index, chunk);
    }
    const highlighted = statements.hitDetails.all(expression, JSON.stringify([...firstChunks.values()])) as {
      chunk: number;
      snippet: string;
      marked: string;
    }[];
    for (const row of highlighted) {
      const index = Math.floor(row.chunk / chunksPerHit);
      const chunk = chunksOf.get(index)?.[row.chunk % chunksPerHit];
      found.set(index, { ...row, linesBefore: chunk?.linesBefore ?? 0 });
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
 * Characters of a passage highlighted at once. FTS5's snippet() is quadratic in the matches of the text it is given
 * (3.9 s for 20,000 in one passage, four times that for twice as many, in one native call that a worker's deadline
 * cannot stop), and a passage is as long as its longest line: a longer passage is highlighted in chunks of about
 * this size, and its hit shows its first chunk that matches. A passage of the usual size (1,200 characters) is one chunk.
 */
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
 * The first `maxChunks` chunks of a passage, each of at most `highlightChunkCharacters`, each cut at the last white space of its second
 * half (so words stay whole), else at the limit without splitting a surrogate pair.
 */
export function highlightChunks(body: string, maxChunks: number): HighlightChunk[] {
  if (body.length <= highlightChunkCharacters) return [{ text: body, linesBefore: 0 }];
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
 * `maxSnippetCharacters` long (and an ellipsis at a cut): from a little before its first match, bold kept balanced.
 */
export function markdownSnippet(marked: string): string {
  let text = marked.replace(/\s+/g, ' ').trim();
  if (text.length > maxSnippetCharacters) {
    const firstMatch = text.indexOf('\uE000');
    let start = Math.max(0, firstMatch - leadCharacters);
    let end = start + maxSnippetCharacters;
    // Never cut a surrogate pair in two.
    if (/[\uDC00-\uDFFF]/.test(text.charAt(start))) start++;
    if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
    let cut = text.slice(start, end);
    if (cut.lastIndexOf('\uE000') > cut.lastIndexOf('\uE001')) cut += '\uE001';
    text = `${start > 0 ? '…' : ''}${cut}…`;
  }
  return text.replace(/\uE000/g, '**').replace(/\uE001/g, '**');
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
