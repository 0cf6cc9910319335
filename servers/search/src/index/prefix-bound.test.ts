import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexDatabase } from './index-database.js';
import { assertPrefixesBounded, prefixWords } from './prefix-bound.js';

describe('prefixWords', () => {
  it('finds the word before each star, bare or ending a quoted phrase', () => {
    expect(prefixWords('onboard* AND "net thirt"* OR title:vac * NOT plain "in*side"')).toEqual([
      'onboard',
      'thirt',
      'vac',
      'in',
    ]);
    expect(prefixWords('"exact phrase" OR plain words')).toEqual([]);
  });
});

describe('assertPrefixesBounded', () => {
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
          passages: [{ line: 1, body: words.join(' ') }],
        });
      }
    });
  });
  afterAll(() => database.close());
  const check = (expression: string, max: number) =>
    assertPrefixesBounded(database.connection, expression, expression, max);

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

  it('stems a prefix as the index does: "mies*" is the prefix mi*, "running*" is run*', () => {
    expect(() => check('mies*', 39)).toThrow(/The prefix mies\* in/);
    // run* starts "run" and "runner" (the stems of running and runner); "rust" stays apart.
    expect(() => check('running*', 20)).not.toThrow();
    expect(() => check('running*', 19)).toThrow(/The prefix running\* in/);
  });
});
