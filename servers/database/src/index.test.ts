import { expect, it } from 'vitest';
import * as publicSurface from './index.js';

it('exports exactly the public surface', () => {
  expect(Object.keys(publicSurface).sort()).toEqual([
    'StatementError',
    'checkPostgresStatement',
    'checkStatement',
    'createDatabaseServer',
    'createSampleDatabase',
    'defaultLimits',
    'destructiveReason',
    'isPostgresUrl',
    'openPostgresEngine',
    'openSqliteEngine',
  ]);
});
