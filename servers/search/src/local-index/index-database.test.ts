import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fts5Settings } from '../../test/fts5-settings.js';
import { IndexDatabase } from './index-database.js';

describe('IndexDatabase merging settings', () => {
  let database: IndexDatabase;

  beforeEach(() => {
    database = new IndexDatabase(':memory:');
  });
  afterEach(() => database.close());

  it('defers both of FTS5 merges for a bulk load: a level is merged at once only at 64 segments, not 16', () => {
    database.setDeferredMerging(true);
    expect(fts5Settings(database)).toMatchObject({ automerge: 0, crisismerge: 64 });
  });

  it('turns merging a little with each write back on after it, and keeps a level from being merged at once below 64', () => {
    database.setDeferredMerging(true);
    database.setDeferredMerging(false);
    // At 16, the first write after a cancelled or killed load merged all that load's segments in one go.
    expect(fts5Settings(database)).toMatchObject({ automerge: 4, crisismerge: 64 });
  });
});
