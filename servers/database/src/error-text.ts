/**
 * How much of a value an error sentence quotes. An engine's message can carry a value of any size: SQLite's "bad JSON
 * path: '...'" holds the path a `printf('%.*c', 50000000, 'x')` built, PostgreSQL's "invalid input syntax" the text
 * it could not read, a syntax error the token it stopped at. Error results are not cut by the result budget, so the
 * sentence itself stays short: a quoted part keeps its head and says how much was left out (ADR 0202).
 */

/** Characters of one quoted part (SQLite's or PostgreSQL's message, a name, a fragment of SQL) kept in a sentence. */
export const quotedChars = 500;

/** Characters of a whole error sentence at most: its head and its tail (the advice) are kept, the middle cut. */
export const sentenceChars = 2000;

/** Where to cut `text` at about `at` without splitting a surrogate pair. */
function cutPoint(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/** `text` when it is short, else its first `limit` characters and how many more there were. */
export function quoted(text: string, limit = quotedChars): string {
  if (text.length <= limit) return text;
  const end = cutPoint(text, limit);
  return `${text.slice(0, end)}... [${(text.length - end).toLocaleString('en-US')} more characters]`;
}

/** A sentence of at most about `sentenceChars` characters: its head and tail, with what was left out between them. */
export function boundedSentence(text: string): string {
  if (text.length <= sentenceChars) return text;
  const tail = 500;
  const headEnd = cutPoint(text, sentenceChars - tail - 50);
  const tailStart = cutPoint(text, text.length - tail);
  return `${text.slice(0, headEnd)} ... [${(tailStart - headEnd).toLocaleString('en-US')} characters left out] ... ${text.slice(tailStart)}`;
}
