import { ToolError } from '@mcpkit/server-kit/task';
import type Database from 'better-sqlite3';
import { passageTokenizer } from './index-database.js';

/**
 * Most indexed occurrences (passages per word, summed over the words a prefix starts) that the prefix terms of one
 * query may stand for together. SQLite expands a prefix by merging the lists of every word it starts in one native
 * call, which terminating a worker cannot interrupt: 200,000 keep that call near 100 ms on the bench machine.
 */
export const maxPrefixOccurrences = 200_000;

/** The word in front of each `*` of an FTS5 expression: a bare word, or the last word of a quoted phrase. */
export function prefixWords(expression: string): string[] {
  return Array.from(expression.matchAll(/([\p{L}\p{N}]+)"?\s*\*/gu), (match) => match[1] as string);
}

/**
 * Refuses a query whose prefix terms stand for more than `maxOccurrences` indexed occurrences in all. Each
 * prefix is tokenized as the index does (the Porter stemmer turns `running*` into `run*`), then counted word by word
 * through fts5vocab, which returns to JavaScript between words, so the count itself can be stopped.
 */
export function assertPrefixesBounded(
  connection: Database.Database,
  expression: string,
  query: string,
  maxOccurrences = maxPrefixOccurrences,
): void {
  const words = prefixWords(expression);
  if (words.length === 0) return;
  // Temporary tables: a read-only connection may create them, and they vanish with the connection.
  connection.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.prefix_words USING fts5(word, tokenize = '${passageTokenizer}');
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.prefix_terms USING fts5vocab(temp, prefix_words, instance);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.passage_terms USING fts5vocab(main, passages, row);
  `);
  const clear = connection.prepare('DELETE FROM temp.prefix_words');
  const insert = connection.prepare('INSERT INTO temp.prefix_words (word) VALUES (?)');
  const lastTerm = connection.prepare('SELECT term FROM temp.prefix_terms ORDER BY "offset" DESC LIMIT 1').pluck();
  const occurrences = connection.prepare('SELECT doc FROM temp.passage_terms WHERE term >= ? AND term <= ?').pluck();
  let total = 0;
  for (const word of words) {
    clear.run();
    insert.run(word);
    const prefix = lastTerm.get() as string | undefined;
    if (prefix === undefined) continue;
    for (const count of occurrences.iterate(prefix, `${prefix}\u{10FFFF}`) as Iterable<number>) {
      total += count;
      if (total > maxOccurrences) {
        throw new ToolError(
          `The prefix ${word}* in ${JSON.stringify(query)} stands for too many indexed words (more than ` +
            `${maxOccurrences.toLocaleString('en-US')} occurrences). Use a longer prefix or whole words.`,
        );
      }
    }
  }
}
