import { expect, it } from 'vitest';
import * as surface from './index.js';

it('exports exactly the public surface', () => {
  expect(Object.keys(surface).sort()).toEqual(['createFilesystemServer', 'defaultLimits']);
});
