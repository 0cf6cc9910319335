import { ToolError } from '@mcpkit/server-kit';
import picomatch from 'picomatch';
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
  const matchesGlob = request.pathGlob ? picomatch(request.pathGlob, { dot: true }) : undefined;
  const wanted = request.offset + request.limit + 1;
  type Row = { rowid: number; path: string; title: string; line: number; rank: number };
  const rows: Row[] = [];
  try {
    // Without a glob, FTS5 ranks and cuts on its own and only the kept rows meet the documents table.
    const ranked = matchesGlob
      ? connection.prepare(
          `SELECT p.rowid AS rowid, d.path AS path, d.title AS title, p.line AS line, p.rank AS rank
           FROM passages p JOIN documents d ON d.id = p.rowid / ${passagesPerDocument}
           WHERE passages MATCH ? ORDER BY p.rank`,
        )
      : connection.prepare(
          `SELECT p.rowid AS rowid, d.path AS path, d.title AS title, p.line AS line, p.rank AS rank
           FROM (SELECT rowid, line, rank FROM passages WHERE passages MATCH ? ORDER BY rank LIMIT ?) p
           JOIN documents d ON d.id = p.rowid / ${passagesPerDocument} ORDER BY p.rank`,
        );
    const iterator = (matchesGlob ? ranked.iterate(expression) : ranked.iterate(expression, wanted)) as Iterable<Row>;
    for (const row of iterator) {
      if (matchesGlob && !request.roots.some((root) => matchesGlob(relativeTo(root, row.path)))) continue;
      rows.push(row);
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
