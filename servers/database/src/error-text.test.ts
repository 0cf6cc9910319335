import { describe, expect, it } from 'vitest';
import { boundedSentence, quoted, quotedChars, sentenceChars } from './error-text.js';

describe('error text', () => {
  it('quotes a short value as it is and a long one by its head, with the count of the rest', () => {
    expect(quoted('no such table: users')).toBe('no such table: users');
    const long = quoted('x'.repeat(quotedChars + 1234));
    expect(long).toBe(`${'x'.repeat(quotedChars)}... [1,234 more characters]`);
  });

  it('never cuts a surrogate pair in two', () => {
    const text = `${'x'.repeat(quotedChars - 1)}${'😀'.repeat(10)}`;
    expect(quoted(text)).toBe(`${'x'.repeat(quotedChars - 1)}... [20 more characters]`);
    const sentence = boundedSentence('😀'.repeat(sentenceChars));
    expect(sentence).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it('keeps the head and the tail (the advice) of a long sentence', () => {
    const sentence = boundedSentence(`Refused: ${'y'.repeat(100_000)}. Call list_tables.`);
    expect(sentence.length).toBeLessThanOrEqual(sentenceChars);
    expect(sentence).toMatch(/^Refused: y+ \.\.\. \[[\d,]+ characters left out\] \.\.\. y+\. Call list_tables\.$/);
    expect(boundedSentence('short')).toBe('short');
  });
});
