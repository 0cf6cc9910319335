import { compileGlob, ToolError } from '@mcpkit/server-kit';
import type pg from 'pg';
import {
  bestLineOffset,
  describeSyntaxError,
  markdownSnippet,
  type SearchHit,
  type SearchPage,
} from '../local-index/search-query.js';
import type { SearchQuery } from '../search-index.js';
import { shownTitle } from '../shown-title.js';
import { cancelOnAbort } from './cancel-on-abort.js';
import { describeDatabaseError } from './database-errors.js';
import { textSearchConfiguration } from './postgres-schema.js';
import { toTextSearchQuery } from './text-search-query.js';

/** How long one search may run in PostgreSQL before the server cancels it. */
export const searchTimeoutMs = 10_000;
/** With a path glob, at most this many best passages are read and filtered. */
const globScanRows = 10_000;
/** BM25's parameters, as FTS5 uses them. */
const k1 = 1.2;
const b = 0.75;
/** Title, path and body weights, as the SQLite index uses them. */
const weights = { A: 6, B: 4, D: 1 };

/** How results are ranked: BM25 from stored statistics (the default), or PostgreSQL's ts_rank_cd with weights. */
export type Ranking = 'bm25' | 'ts_rank_cd';

const conf = `'${textSearchConfiguration}'`;
/** The weights as ts_rank_cd takes them, {D, C, B, A}, relative to the title's. */
const weightsArray = `{${weights.D / weights.A}, 0, ${weights.B / weights.A}, 1}`;

/**
 * The settings of every search connection, sent when it opens (no round trip per search): a read-only session, the
 * statement timeout, memory for ranking a broad query, and no JIT compilation, which the planner's estimates for
 * these statements often triggered at a cost of about 200 ms a query.
 */
export const searchSessionOptions = `-c default_transaction_read_only=on -c statement_timeout=${searchTimeoutMs} -c work_mem=64MB -c jit=off`;

/**
 * The SQL (common table expressions ending in `ranked (id, document_id, score)`) that scores the passages matching
 * `$1`; `terms` holds the query's words as the index stemmed them, each as a tsquery with its idf.
 */
function rankedSql(ranking: Ranking): string {
  // Each word as the index stemmed it, with the number of passages that hold it (through the GIN index), and the
  // totals kept by the writer, for the idf: ln((N - n + 0.5) / (n + 0.5)), at least 1e-6 as in FTS5.
  const terms = `words AS (
      SELECT DISTINCT (quote_literal(entry.lexeme) || CASE WHEN word.prefix THEN ':*' ELSE '' END)::tsquery AS query
      FROM unnest($3::text[], $4::boolean[]) AS word (text, prefix)
      CROSS JOIN LATERAL unnest(to_tsvector(${conf}, word.text)) AS entry
    ),
    counted AS (
      SELECT words.query, (SELECT count(*) FROM search_passages p WHERE p.terms @@ words.query) AS hits FROM words
    ),
    terms AS (
      SELECT array_agg(counted.query) AS queries,
             array_agg(greatest(ln((stats.passages - counted.hits + 0.5)::float8 / (counted.hits + 0.5)), 1e-6)) AS idfs,
             CASE WHEN stats.passages > 0 THEN stats.tokens::float8 / stats.passages ELSE 1 END AS average
      FROM search_stats AS stats LEFT JOIN counted ON true
      GROUP BY stats.passages, stats.tokens
    )`;
  const matches = `p.terms @@ to_tsquery(${conf}, $1)`;
  if (ranking === 'ts_rank_cd') {
    // Normalization 1 divides by 1 + log(length), as BM25 favours short passages.
    const rank = `ts_rank_cd('${weightsArray}', p.terms, to_tsquery(${conf}, $1), 1)`;
    return `${terms}, ranked AS (SELECT p.id, p.document_id, ${rank} AS score FROM search_passages p WHERE ${matches})`;
  }
  // FTS5's bm25(): per term, idf * f * (k1 + 1) / (f + k1 * (1 - b + b * length / average)), where f sums the
  // column weights of the term's occurrences in the passage. ts_rank_cd of a one-term query without normalization
  // is the sum of the weights of that term's occurrences (each occurrence is a cover of its own; a prefix counts
  // every word it stands for), so with the weights relative to the title's, f is 6 times it: computed in C on the
  // stored tsvector, once per passage and term (OFFSET 0 keeps the planner from computing it twice), where
  // unnesting every matching passage's lexemes into rows cost 3-6 times as much.
  const frequency = `${weights.A} * ts_rank_cd('${weightsArray}', p.terms, t.query, 0)`;
  return `${terms},
    ranked AS (
      SELECT p.id, p.document_id, coalesce(s.score, 0) AS score
      FROM search_passages p CROSS JOIN terms
      CROSS JOIN LATERAL (
        SELECT sum(f.idf * f.freq * ${k1 + 1} / (f.freq + ${k1} * (${1 - b} + ${b} * p.length / terms.average))) AS score
        FROM (
          SELECT t.idf, ${frequency} AS freq FROM unnest(terms.queries, terms.idfs) AS t (query, idf) OFFSET 0
        ) AS f
      ) AS s
      WHERE ${matches}
    )`;
}

/** Marks ts_headline puts around matches: private-use characters that no document holds, made bold later. */
const marks = 'StartSel=\uE000, StopSel=\uE001';
const snippetOptions = `${marks}, MaxWords=28, MinWords=12, MaxFragments=1`;
const markedOptions = `${marks}, HighlightAll=true`;

/**
 * Searches a shared index in one statement: a GIN lookup of the tsquery, BM25 with the title and path boost
 * computed from the passages' weighted tsvectors and the stored totals, at most three passages per document, and
 * for the page's passages the snippet and the best line by ts_headline (with a path glob, a second statement reads
 * those of the passages the glob kept). Runs on a connection opened with `searchSessionOptions`; an aborted signal
 * cancels the statement on the server.
 */
export async function searchPostgres(
  pool: pg.Pool,
  query: SearchQuery,
  options: { signal?: AbortSignal; ranking?: Ranking } = {},
): Promise<SearchPage> {
  const { tsquery, terms } = toTextSearchQuery(query.query);
  const matchesGlob = query.pathGlob ? compileGlob(query.pathGlob, { dot: true }) : undefined;
  const wanted = query.offset + query.limit + 1;
  const ranking = options.ranking ?? 'bm25';
  // Without a glob the page is known in SQL: its snippets come with the ranking.
  const pageFrom = matchesGlob ? 0 : query.offset;
  const pageTo = matchesGlob ? 0 : query.offset + query.limit;
  const client = await pool.connect();
  try {
    return await cancelOnAbort(pool, client, options.signal, async () => {
      const { rows } = await client.query<{
        id: string;
        source: string;
        path: string;
        title: string;
        score: number;
        line: number;
        snippet: string | null;
        marked: string | null;
      }>(
        `WITH ${rankedSql(ranking)},
         capped AS (
           SELECT ranked.*, row_number() OVER (PARTITION BY document_id ORDER BY score DESC, id) AS nth FROM ranked
         ),
         best AS (SELECT id, document_id, score FROM capped WHERE nth <= 3 ORDER BY score DESC, id LIMIT $2),
         numbered AS (SELECT best.*, row_number() OVER (ORDER BY score DESC, id) AS rank FROM best)
         SELECT n.id, d.source, d.path, d.title, n.score, p.line,
                CASE WHEN n.rank > $5 AND n.rank <= $6 THEN ts_headline(${conf}, p.body, q, $7) END AS snippet,
                CASE WHEN n.rank > $5 AND n.rank <= $6 THEN ts_headline(${conf}, p.body, q, $8) END AS marked
         FROM numbered n
         JOIN search_documents d ON d.id = n.document_id
         JOIN search_passages p ON p.id = n.id
         CROSS JOIN to_tsquery(${conf}, $1) AS q
         ORDER BY n.rank`,
        [
          tsquery,
          matchesGlob ? globScanRows : wanted,
          terms.map((term) => term.word),
          terms.map((term) => term.prefix),
          pageFrom,
          pageTo,
          snippetOptions,
          markedOptions,
        ],
      );
      const kept = matchesGlob ? rows.filter((row) => matchesGlob(row.path)).slice(0, wanted) : rows;
      const page = kept.slice(query.offset, query.offset + query.limit);
      if (matchesGlob && page.length > 0) {
        const { rows: details } = await client.query<{ id: string; snippet: string; marked: string }>(
          `SELECT p.id, ts_headline(${conf}, p.body, q, $2) AS snippet, ts_headline(${conf}, p.body, q, $3) AS marked
           FROM search_passages p, to_tsquery(${conf}, $1) AS q
           WHERE p.id = ANY($4::bigint[])`,
          [tsquery, snippetOptions, markedOptions, page.map((row) => row.id)],
        );
        const byId = new Map(details.map((detail) => [detail.id, detail]));
        for (const row of page) {
          row.snippet = byId.get(row.id)?.snippet ?? '';
          row.marked = byId.get(row.id)?.marked ?? '';
        }
      }
      const hits = page.map(
        (row): SearchHit => ({
          path: `${row.source}/${row.path}`,
          line: row.line + bestLineOffset(row.marked ?? ''),
          title: shownTitle(row.title),
          score: Math.round(row.score * 1000) / 1000,
          snippet: markdownSnippet(row.snippet ?? ''),
        }),
      );
      return { hits, more: kept.length > query.offset + query.limit };
    });
  } catch (error) {
    if (options.signal?.aborted) throw new ToolError('The search was cancelled.');
    const code = (error as { code?: string }).code;
    if (code === '57014') {
      throw new ToolError(
        `The search took longer than ${searchTimeoutMs / 1000} s and was stopped; use fewer, rarer words or a longer prefix.`,
      );
    }
    if (code === '42601') throw describeSyntaxError(query.query, error);
    throw describeDatabaseError(error);
  } finally {
    client.release();
  }
}
