import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexDatabase } from './index-database.js';

describe('IndexDatabase merging settings', () => {
  let database: IndexDatabase;
  const settings = () =>
    Object.fromEntries(
      database.connection
        .prepare(`SELECT k, v FROM passages_config WHERE k IN ('automerge', 'crisismerge')`)
        .raw()
        .all() as [string, unknown][],
    );

  beforeEach(() => {
    database = new IndexDatabase(':memory:');
  });
  afterEach(() => database.close());

  it('defers both of FTS5 merges for a bulk load: a level is merged at once only at 64 segments, not 16', () => {
    database.setAutomerge(false);
    expect(settings()).toEqual({ automerge: 0, crisismerge: 64 });
  });

  it('turns merging a little with each write back on after it, and keeps a level from being merged at once below 64', () => {
    database.setAutomerge(false);
    database.setAutomerge(true);
    // At 16, the first write after a cancelled or killed load merged all that load's segments in one go.
    expect(settings()).toEqual({ automerge: 4, crisismerge: 64 });
  });
});
