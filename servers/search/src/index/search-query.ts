import { compileGlob, ToolError } from '@mcpkit/server-kit';
import type { IndexDatabase } from './index-database.js';
import { passagesPerDocument } from './index-database.js';

/** One search hit: a passage of a document, pointed at by the line of its first match. */
export interface SearchHit {
  path: string;
  line: number;
  title: string;
  /** BM25 with the title/path boost; higher is better. */
  score: number;
  /** The best stretch of the passage with matches in **bold**. */
  snippet: string;
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
function usesQuerySyntax(query: string): boolean {
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

function describeSyntaxError(query: string, error: unknown): ToolError {
  const detail = error instanceof Error ? error.message.replace(/^fts5: /, '') : String(error);
  return new ToolError(
    `The query ${JSON.stringify(query)} is not valid search syntax (${detail}). Use plain words, "exact phrases" in ` +
      'double quotes, prefix* terms, and AND / OR / NOT in capitals between terms.',
  );
}

/** Runs a search and returns one page of hits, best first. */
export function searchIndex(
  database: IndexDatabase,
  request: { query: string; limit: number; offset: number; pathGlob?: string; roots: readonly string[] },
): SearchPage {
  const expression = toMatchExpression(request.query);
  const connection = database.connection;
  // The kit's matcher costs at most pattern length times path length per path: no glob can stall the loop below.
  const matchesGlob = request.pathGlob ? compileGlob(request.pathGlob, { dot: true }) : undefined;
  const wanted = request.offset + request.limit + 1;
  type Row = { rowid: number; path: string; title: string; line: number; rank: number };
  const rows: Row[] = [];
  const documents = new Map<number, { path: string; title: string } | undefined>();
  const documentOf = connection.prepare(`SELECT path, title FROM documents WHERE id = ?`);
  const perDocument = new Map<number, number>();
  try {
    // FTS5 ranks on its own; rows meet the documents table one by one, only until the page is full.
    const ranked = connection.prepare(`SELECT rowid, line, rank FROM passages WHERE passages MATCH ? ORDER BY rank`);
    for (const row of ranked.iterate(expression) as Iterable<{ rowid: number; line: number; rank: number }>) {
      const id = Math.floor(row.rowid / passagesPerDocument);
      const shown = perDocument.get(id) ?? 0;
      // A long document that matches everywhere would fill the page; later passages of it give way to others.
      if (shown >= maxPassagesPerDocument) continue;
      if (!documents.has(id)) documents.set(id, documentOf.get(id) as { path: string; title: string } | undefined);
      const document = documents.get(id);
      if (!document) continue;
      if (matchesGlob && !request.roots.some((root) => matchesGlob(relativeTo(root, document.path)))) continue;
      perDocument.set(id, shown + 1);
      rows.push({ ...row, ...document });
      if (rows.length >= wanted) break;
    }
  } catch (error) {
    if (
      error instanceof Error &&
      /fts5|syntax|no such column|unterminated|unknown special query/i.test(error.message)
    ) {
      throw describeSyntaxError(request.query, error);
    }
    throw error;
  }
  const page = rows.slice(request.offset, request.offset + request.limit);
  const detail = connection.prepare(
    `SELECT snippet(passages, 2, char(57344), char(57345), '…', 28) AS snippet,
            highlight(passages, 2, char(57344), char(57345)) AS marked
     FROM passages WHERE passages MATCH ? AND rowid = CAST(? AS INTEGER)`,
  );
  const hits = page.map((row): SearchHit => {
    const found = detail.get(expression, row.rowid) as { snippet: string; marked: string } | undefined;
    return {
      path: row.path,
      line: row.line + bestLineOffset(found?.marked ?? ''),
      title: row.title,
      score: Math.round(-row.rank * 1000) / 1000,
      snippet: (found?.snippet ?? '')
        .replace(/\s+/g, ' ')
        .replace(/\uE000/g, '**')
        .replace(/\uE001/g, '**')
        .trim(),
    };
  });
  return { hits, more: rows.length > request.offset + request.limit };
}

/** The line of a highlighted passage with the most distinct matched terms (headings and later lines lose ties), from 0. */
function bestLineOffset(marked: string): number {
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
