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

/**
 * The SQL (common table expressions ending in `ranked (id, document_id, score)`) that scores the passages matching
 * `$1`. BM25 reads `$3` lexemes, `$4` prefix flags, `$5` idf values and `$6` the average passage length.
 */
function rankedSql(ranking: Ranking): string {
  const matches = `p.terms @@ to_tsquery(${conf}, $1)`;
  if (ranking === 'ts_rank_cd') {
    // Weights are {D, C, B, A}; normalization 1 divides by 1 + log(length), as BM25 favours short passages.
    const rank = `ts_rank_cd('{${weights.D / weights.A}, 0, ${weights.B / weights.A}, 1}', p.terms, to_tsquery(${conf}, $1), 1)`;
    return `ranked AS (SELECT p.id, p.document_id, ${rank} AS score FROM search_passages p WHERE ${matches})`;
  }
  // FTS5's bm25(): per term, idf * f * (k1 + 1) / (f + k1 * (1 - b + b * length / average)), where f sums the
  // column weights of the term's occurrences in the passage. The matching passages' lexemes are joined with the
  // query's terms as one set (a hash join for whole words), not term by term per passage.
  // A lexeme is one entry of a tsvector, its positions' weights merged: whole words need no grouping, prefixes do.
  const frequency =
    `(cardinality(u.weights) + ${weights.A - weights.D} * cardinality(array_positions(u.weights, 'A'))` +
    ` + ${weights.B - weights.D} * cardinality(array_positions(u.weights, 'B')))::float8`;
  return `terms AS (
      SELECT * FROM unnest($3::text[], $4::boolean[], $5::float8[]) WITH ORDINALITY AS t (lexeme, prefix, idf, term)
    ),
    matched AS MATERIALIZED (
      SELECT p.id, p.document_id, p.length, p.terms FROM search_passages p WHERE ${matches}
    ),
    frequencies AS (
      SELECT m.id, m.length, t.idf, ${frequency} AS freq
      FROM matched m CROSS JOIN LATERAL unnest(m.terms) AS u JOIN terms t ON t.lexeme = u.lexeme
      WHERE NOT t.prefix
      UNION ALL
      SELECT m.id, m.length, t.idf, sum(${frequency}) AS freq
      FROM matched m CROSS JOIN LATERAL unnest(m.terms) AS u JOIN terms t ON t.prefix AND starts_with(u.lexeme, t.lexeme)
      GROUP BY m.id, m.length, t.term, t.idf
    ),
    scores AS (
      SELECT id, sum(idf * freq * ${k1 + 1} / (freq + ${k1} * (${1 - b} + ${b} * length / $6::float8))) AS score
      FROM frequencies GROUP BY id
    ),
    ranked AS (
      SELECT m.id, m.document_id, coalesce(s.score, 0) AS score FROM matched m LEFT JOIN scores s ON s.id = m.id
    )`;
}

/**
 * Searches a shared index: a GIN lookup of the tsquery, BM25 with the title and path boost computed from the
 * passages' weighted tsvectors and the stored totals, at most three passages per document, then snippets and the
 * best line of the page's passages by ts_headline. Runs in one read-only transaction under a statement timeout;
 * an aborted signal cancels the statement on the server.
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
  const client = await pool.connect();
  let broken = false;
  try {
    return await cancelOnAbort(pool, client, options.signal, async () => {
      try {
        // Constants only, so one round trip. Ranking a broad query groups a row per matched word: in memory. JIT
        // compilation, which the planner's estimates for these statements often trigger, cost 200 ms a query here.
        await client.query(
          `BEGIN READ ONLY; SET LOCAL statement_timeout = ${searchTimeoutMs}; SET LOCAL work_mem = '64MB'; SET LOCAL jit = off`,
        );
        // Each word as the index stemmed it, with the number of passages that hold it, and the totals, for the idf.
        const { rows: termRows } = await client.query<{
          lexeme: string;
          prefix: boolean;
          hits: string;
          passages: string;
          tokens: string;
        }>(
          `WITH words AS (
             SELECT DISTINCT entry.lexeme, word.prefix
             FROM unnest($1::text[], $2::boolean[]) AS word (text, prefix)
             CROSS JOIN LATERAL unnest(to_tsvector(${conf}, word.text)) AS entry
           )
           SELECT lexeme, prefix, stats.passages, stats.tokens,
                  (SELECT count(*) FROM search_passages p
                   WHERE p.terms @@ (quote_literal(lexeme) || CASE WHEN prefix THEN ':*' ELSE '' END)::tsquery) AS hits
           FROM words CROSS JOIN search_stats AS stats`,
          [terms.map((term) => term.word), terms.map((term) => term.prefix)],
        );
        const total = Number(termRows[0]?.passages ?? 0);
        const average = total > 0 ? Number(termRows[0]?.tokens ?? 0) / total : 1;
        const idf = termRows.map((row) => {
          const hits = Number(row.hits);
          const value = Math.log((total - hits + 0.5) / (hits + 0.5));
          return value > 0 ? value : 1e-6;
        });
        const limit = matchesGlob ? globScanRows : wanted;
        const { rows } = await client.query<{ id: string; source: string; path: string; title: string; score: number }>(
          `WITH ${rankedSql(ranking)},
           capped AS (
             SELECT ranked.*, row_number() OVER (PARTITION BY document_id ORDER BY score DESC, id) AS nth FROM ranked
           )
           SELECT capped.id, d.source, d.path, d.title, capped.score
           FROM capped JOIN search_documents d ON d.id = capped.document_id
           WHERE capped.nth <= 3
           ORDER BY capped.score DESC, capped.id
           LIMIT $2`,
          ranking === 'bm25'
            ? [tsquery, limit, termRows.map((row) => row.lexeme), termRows.map((row) => row.prefix), idf, average]
            : [tsquery, limit],
        );
        const kept = matchesGlob ? rows.filter((row) => matchesGlob(row.path)).slice(0, wanted) : rows;
        const page = kept.slice(query.offset, query.offset + query.limit);
        const marks = 'StartSel=\uE000, StopSel=\uE001';
        const { rows: details } = await client.query<{ id: string; line: number; snippet: string; marked: string }>(
          `SELECT p.id, p.line,
                  ts_headline(${conf}, p.body, q, $2) AS snippet,
                  ts_headline(${conf}, p.body, q, $3) AS marked
           FROM search_passages p, to_tsquery(${conf}, $1) AS q
           WHERE p.id = ANY($4::bigint[])`,
          [
            tsquery,
            `${marks}, MaxWords=28, MinWords=12, MaxFragments=1`,
            `${marks}, HighlightAll=true`,
            page.map((row) => row.id),
          ],
        );
        await client.query('COMMIT');
        const byId = new Map(details.map((detail) => [detail.id, detail]));
        const hits = page.map((row): SearchHit => {
          const detail = byId.get(row.id);
          return {
            path: `${row.source}/${row.path}`,
            line: (detail?.line ?? 0) + bestLineOffset(detail?.marked ?? ''),
            title: row.title,
            score: Math.round(row.score * 1000) / 1000,
            snippet: markdownSnippet(detail?.snippet ?? ''),
          };
        });
        return { hits, more: kept.length > query.offset + query.limit };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      }
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
    client.release(broken);
  }
}
