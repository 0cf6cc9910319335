import { describe, expect, it } from 'vitest';
import { toMatchExpression } from './search-query.js';

describe('toMatchExpression', () => {
  it('turns a question into an OR of its meaningful words, quoted', () => {
    expect(toMatchExpression("What is our company's vacation policy?")).toBe('"company" OR "vacation" OR "policy"');
  });

  it('passes FTS5 syntax through unchanged', () => {
    for (const query of ['"exact phrase"', 'vacat*', 'fox AND dog', 'fox NOT dog', 'title:policy', '(a OR b) c']) {
      expect(toMatchExpression(query)).toBe(query);
    }
  });

  it('refuses a query with nothing to search for', () => {
    expect(() => toMatchExpression('?? !!')).toThrow(/no words/);
  });
});
