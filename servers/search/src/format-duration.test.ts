import { describe, expect, it } from 'vitest';
import { formatSeconds } from './format-duration.js';

describe('formatSeconds', () => {
  it('writes whole and fractional seconds with the right noun', () => {
    expect(formatSeconds(1000)).toBe('1 second');
    expect(formatSeconds(800)).toBe('0.8 seconds');
    expect(formatSeconds(20_000)).toBe('20 seconds');
    expect(formatSeconds(120_000)).toBe('120 seconds');
  });
});
