import { describe, expect, it } from 'vitest';
import { shownTitle } from './shown-title.js';

describe('shownTitle', () => {
  it('keeps a title of up to 200 characters and cuts a longer one with an ellipsis, never inside a surrogate pair', () => {
    expect(shownTitle('Vacation Policy')).toBe('Vacation Policy');
    expect(shownTitle('x'.repeat(200))).toBe('x'.repeat(200));
    expect(shownTitle('x'.repeat(201))).toBe(`${'x'.repeat(200)}…`);
    expect(shownTitle(`${'x'.repeat(199)}\u{1F600}tail`)).toBe(`${'x'.repeat(199)}…`);
  });
});
