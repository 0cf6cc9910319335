import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexDatabase } from './index-database.js';
import { assertTermsBounded, queryTerms } from './term-bound.js';

describe('queryTerms', () => {
  it('finds the words and prefixes, bare or quoted, without operators and column names', () => {
    expect(queryTerms('onboard* AND "net thirt"* OR title:vac * NOT plain "in*side" NEAR(a b)')).toEqual([
      { word: 'onboard', prefix: true },
      { word: 'net', prefix: false },
      { word: 'thirt', prefix: true },
      { word: 'vac', prefix: true },
      { word: 'plain', prefix: false },
      { word: 'in', prefix: false },
      { word: 'side', prefix: false },
      { word: 'a', prefix: false },
      { word: 'b', prefix: false },
    ]);
    expect(queryTerms('"AND" OR "vacation" OR "policy"').map((term) => term.word)).toEqual([
      'AND',
      'vacation',
      'policy',
    ]);
  });
});

describe('assertTermsBounded', () => {
  let database: IndexDatabase;
  beforeAll(() => {
    database = new IndexDatabase(':memory:');
    const words = ['mia', 'mib', 'mic', 'mid', 'runner', 'running', 'rust'];
    database.transaction(() => {
      for (let document = 0; document < 10; document++) {
        database.putDocument({
          path: `/docs/${document}.md`,
          relativePath: `${document}.md`,
          size: 1,
          mtimeMs: 1,
          title: '',
          lineCount: 1,
          text: true,
          digest: Buffer.alloc(0),
          passages: [{ line: 1, body: words.join(' ') }],
        });
      }
    });
  });
  afterAll(() => database.close());
  const check = (expression: string, prefixOccurrences: number, termOccurrences = 1000) =>
    assertTermsBounded(database.connection, expression, expression, { prefixOccurrences, termOccurrences });

  it('counts the occurrences of every word a prefix starts, over all the prefixes of the query', () => {
    // mi* stands for four words in ten passages each: 40 occurrences.
    expect(() => check('mi*', 40)).not.toThrow();
    expect(() => check('mi*', 39)).toThrow(
      'The prefix mi* in "mi*" stands for too many indexed words (more than 39 occurrences). Use a longer prefix or whole words.',
    );
    expect(() => check('mia* OR mib*', 20)).not.toThrow();
    expect(() => check('mia* OR mib* OR mia*', 20)).toThrow(/The prefix mia\* in/);
    expect(() => check('"mia mib" OR nothing*', 0)).not.toThrow();
  });

  it('stems words as the index does: "mies*" is the prefix mi*, "running*" is run*', () => {
    expect(() => check('mies*', 39)).toThrow(/The prefix mies\* in/);
    // run* starts "run" and "runner" (the stems of running and runner); "rust" stays apart.
    expect(() => check('running*', 20)).not.toThrow();
    expect(() => check('running*', 19)).toThrow(/The prefix running\* in/);
  });

  it('counts the occurrences of all the words of the query together', () => {
    expect(() => check('"mia" OR "running" OR "runners"', 1000, 30)).not.toThrow();
    expect(() => check('"mia" OR "running" OR "runners" OR rust', 1000, 30)).toThrow(
      'The words of "\\"mia\\" OR \\"running\\" OR \\"runners\\" OR rust" stand for too much of the index (more ' +
        'than 30 occurrences in all). Use fewer or rarer words.',
    );
    expect(() => check('mi* OR rust', 1000, 45)).toThrow(/The words of/);
  });
});
