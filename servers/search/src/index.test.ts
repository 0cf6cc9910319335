import { describe, expect, it } from 'vitest';
import * as publicSurface from './index.js';

describe('public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(publicSurface).sort()).toEqual([
      'AddressRefusedError',
      'AllowedDirectories',
      'LocalIndex',
      'PostgresIndex',
      'addressRefusal',
      'braveProvider',
      'createGuardedDispatcher',
      'createPageFetcher',
      'createSearchServer',
      'defaultFetchLimits',
      'openSearchIndex',
      'searxngProvider',
    ]);
  });
});
