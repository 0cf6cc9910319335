import { describe, expect, it } from 'vitest';
import { toTextSearchQuery } from './text-search-query.js';

describe('toTextSearchQuery', () => {
  it('turns a question into an OR of its meaningful words, each quoted', () => {
    expect(toTextSearchQuery("What is our company's vacation policy?")).toEqual({
      tsquery: "(('company' | 'vacation') | 'policy')",
      terms: [
        { word: 'company', prefix: false },
        { word: 'vacation', prefix: false },
        { word: 'policy', prefix: false },
      ],
    });
  });

  it('translates phrases, prefixes, NOT, implicit AND and column filters', () => {
    expect(toTextSearchQuery('"lazy dog"').tsquery).toBe("('lazy' <-> 'dog')");
    expect(toTextSearchQuery('onboard*').tsquery).toBe("'onboard':*");
    expect(toTextSearchQuery('fox NOT dog')).toEqual({
      tsquery: "('fox' & !'dog')",
      terms: [{ word: 'fox', prefix: false }],
    });
    expect(toTextSearchQuery('fox cat OR bird').tsquery).toBe("(('fox' & 'cat') | 'bird')");
    expect(toTextSearchQuery('title:policy path:hr*').tsquery).toBe("('policy':A & 'hr':*B)");
    expect(toTextSearchQuery('NEAR(fox dog, 3)').tsquery).toBe("('fox' & 'dog')");
  });

  it('quotes what could be read as tsquery syntax', () => {
    expect(toTextSearchQuery("o'brien & | ! <-> co:").tsquery).toBe("(('o' <-> 'brien') | 'co')");
  });

  it('refuses malformed syntax with the same sentence as the SQLite index', () => {
    for (const query of ['"unterminated', 'fox AND', 'nosuchcolumn:fox OR (', 'NEAR(fox', 'a - b"', '(fox']) {
      expect(() => toTextSearchQuery(query), query).toThrow(/^The query .* is not valid search syntax/);
    }
  });
});
