import { expect, it } from 'vitest';
import * as testing from './index.js';

// The test doubles live on their own subpath, apart from the product entry; a change here should be visible in review.
it('exports exactly the testing surface', () => {
  expect(Object.keys(testing).sort()).toEqual(['followRedirects', 'parseScript', 'startScriptedModel', 'wireProblems']);
});
