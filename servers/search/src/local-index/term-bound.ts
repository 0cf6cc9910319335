import { ToolError } from '@mcpkit/server-kit/task';
import type Database from 'better-sqlite3';
import { passageTokenizer } from './index-database.js';
import { perConnection } from './per-connection.js';

/** How much of the index one query may make SQLite read in calls that a worker's termination cannot interrupt. */
export interface TermLimits {
  /**
   * Most indexed occurrences (passages per word, summed over the words a prefix starts) that the prefix terms of a
   * query may stand for together: SQLite expands a prefix by merging the lists of every word it starts in one
   * native call. 200,000 keep that call near 100 ms on the bench machine.
   */
  prefixOccurrences: number;
  /**
   * Most indexed occurrences of all the terms of a query together: BM25 first counts the passages that hold each
   * term, all terms in one native call (about 100 ms per million occurrences on the loaded bench machine).
   */
  termOccurrences: number;
}

/** The limits searches run under. */
export const termLimits: TermLimits = { prefixOccurrences: 200_000, termOccurrences: 2_000_000 };

/** One word of an FTS5 expression, and whether it is a prefix (`word*`, or the last word of `"a phrase"*`). */
export interface QueryTerm {
  word: string;
  prefix: boolean;
}

/**
 * The words an FTS5 expression searches for: every word inside double quotes, and outside them every word except
 * the operators AND, OR, NOT, NEAR and column names before a colon. Counting a column name or a NEAR distance as a
 * word only overestimates.
 */
export function queryTerms(expression: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  expression.split('"').forEach((part, index, parts) => {
    const quoted = index % 2 === 1;
    if (quoted) {
      const words = Array.from(part.matchAll(/[\p{L}\p{N}]+/gu), (match) => match[0]);
      const prefix = index + 1 < parts.length && /^\s*\*/.test(parts[index + 1] ?? '');
      words.forEach((word, position) => {
        terms.push({ word, prefix: prefix && position === words.length - 1 });
      });
      return;
    }
    for (const match of part.matchAll(/([\p{L}\p{N}]+)(\s*\*)?(\s*:)?/gu)) {
      const word = match[1] as string;
      if (match[3] !== undefined || /^(AND|OR|NOT|NEAR)$/.test(word)) continue;
      terms.push({ word, prefix: match[2] !== undefined });
    }
  });
  return terms;
}

/** A connection's statements for counting terms, and the temporary tables they read, made on its first query. */
const termStatements = perConnection((connection) => {
  // Temporary tables: a read-only connection may create them, and they vanish with the connection.
  connection.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words USING fts5(word, tokenize = '${passageTokenizer}');
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_tokens USING fts5vocab(temp, query_words, instance);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.passage_terms USING fts5vocab(main, passages, row);
  `);
  return {
    clearWords: connection.prepare('DELETE FROM temp.query_words'),
    insertWord: connection.prepare('INSERT INTO temp.query_words (rowid, word) VALUES (?, ?)'),
    tokens: connection.prepare('SELECT doc, term FROM temp.query_tokens ORDER BY doc, "offset"'),
    exact: connection.prepare('SELECT doc FROM temp.passage_terms WHERE term = ?').pluck(),
    range: connection.prepare('SELECT doc FROM temp.passage_terms WHERE term >= ? AND term <= ?').pluck(),
  };
});

/**
 * Refuses a query whose terms stand for more of the index than `limits` allow, before SQLite reads their lists in
 * native calls that cannot be stopped. Each word is tokenized as the index does (the Porter stemmer turns
 * `running*` into `run*`), then counted through fts5vocab, which returns to JavaScript between words, so the
 * counting itself can be stopped.
 */
export function assertTermsBounded(
  connection: Database.Database,
  expression: string,
  query: string,
  limits: TermLimits = termLimits,
): void {
  const terms = queryTerms(expression);
  if (terms.length === 0) return;
  const statements = termStatements(connection);
  statements.clearWords.run();
  terms.forEach((term, index) => {
    statements.insertWord.run(index, term.word);
  });
  // The token of each word as the index stores it: the last one, should the tokenizer split a word.
  const tokens = new Map<number, string>();
  for (const row of statements.tokens.iterate() as Iterable<{ doc: number; term: string }>)
    tokens.set(row.doc, row.term);
  statements.clearWords.run();
  const { exact, range } = statements;
  let total = 0;
  let prefixTotal = 0;
  const tooManyWords = () =>
    new ToolError(
      `The words of ${JSON.stringify(query)} stand for too much of the index (more than ` +
        `${limits.termOccurrences.toLocaleString('en-US')} occurrences in all). Use fewer or rarer words.`,
    );
  const tooBroadPrefix = (word: string) =>
    new ToolError(
      `The prefix ${word}* in ${JSON.stringify(query)} stands for too many indexed words (more than ` +
        `${limits.prefixOccurrences.toLocaleString('en-US')} occurrences). Use a longer prefix or whole words.`,
    );
  terms.forEach((term, index) => {
    const token = tokens.get(index);
    if (token === undefined) return;
    if (!term.prefix) {
      total += (exact.get(token) as number | undefined) ?? 0;
      if (total > limits.termOccurrences) throw tooManyWords();
      return;
    }
    for (const count of range.iterate(token, `${token}\u{10FFFF}`) as Iterable<number>) {
      total += count;
      prefixTotal += count;
      if (prefixTotal > limits.prefixOccurrences) throw tooBroadPrefix(term.word);
      if (total > limits.termOccurrences) throw tooManyWords();
    }
  });
}
