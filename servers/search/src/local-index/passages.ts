import type { PassageInput } from './index-database.js';

/** Passages aim at this many characters: long enough for context, short enough that BM25 points at the right place. */
const targetCharacters = 1200;
/** No passage spans more lines than this, so `path:line` stays close to the match. */
const maxLines = 40;

/**
 * Splits a text into passages of whole lines, preferring to cut at blank lines (paragraphs). Each passage keeps the
 * 1-based number of its first line.
 */
export function splitPassages(text: string): { passages: PassageInput[]; lineCount: number } {
  const lines = text.split(/\r?\n/);
  const passages: PassageInput[] = [];
  let start = 0;
  let characters = 0;
  const flush = (end: number) => {
    const body = lines.slice(start, end).join('\n');
    if (body.trim()) passages.push({ line: start + 1, body });
    start = end;
    characters = 0;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    characters += line.length + 1;
    const count = index + 1 - start;
    const atParagraphEnd = line.trim() === '' && characters >= targetCharacters / 2;
    if (count >= maxLines || characters >= targetCharacters || atParagraphEnd) flush(index + 1);
  }
  if (start < lines.length) flush(lines.length);
  return { passages, lineCount: lines.length };
}
