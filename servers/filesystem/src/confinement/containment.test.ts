import { describe, expect, it } from 'vitest';
import { isInside } from './containment.js';

describe('isInside', () => {
  it('compares whole components, never string prefixes', () => {
    expect(isInside('/data', '/data')).toBe(true);
    expect(isInside('/data', '/data/a/b')).toBe(true);
    expect(isInside('/data', '/data_secret')).toBe(false);
    expect(isInside('/data', '/data/../etc')).toBe(false);
    expect(isInside('/data', '/')).toBe(false);
    expect(isInside('/', '/anything')).toBe(true);
    expect(isInside('/data', '/data/..hidden')).toBe(true);
  });
});
