import { describe, expect, it } from 'vitest';
import { readWalkCursor, walkCursor, walkCursorLength } from './walk-cursor.js';

describe('walk cursors', () => {
  it('knows the length of a cursor without making it, for any path and line', () => {
    const roots = ['/srv/data', '/home/ünïcode/名前'];
    const positions = [
      { after: '' },
      { after: 'a' },
      { after: 'ab' },
      { after: 'src/deep/file.ts' },
      { after: 'notes\n"quoted"\u0001\u2028', line: 12 },
      { after: '😀/名前/ü', line: 1_000_000 },
      { after: 'x'.repeat(4000) },
    ];
    for (const root of roots) {
      for (const position of positions) {
        const cursor = walkCursor('grep', root, position);
        expect(walkCursorLength('grep', root, position)).toBe(cursor.length);
        expect(readWalkCursor(cursor, 'grep', root)).toEqual(position);
      }
    }
  });
});
