import { describe, expect, it } from 'vitest';
import { progressLine } from './progress-line.js';

describe('progressLine', () => {
  it('rewrites one line in place on a terminal and clears it at the end', () => {
    const written: string[] = [];
    const line = progressLine('⋯ files.index', (text) => written.push(text), true);
    line.update({ progress: 1, total: 4, message: 'scanning' });
    line.update({ progress: 2, total: 4 });
    line.done();
    expect(written).toEqual(['\r\x1b[K⋯ files.index 1/4 scanning', '\r\x1b[K⋯ files.index 2/4', '\r\x1b[K']);
  });

  it('writes plain lines, at most one a second, without a terminal', () => {
    const written: string[] = [];
    const line = progressLine('⋯ files.index', (text) => written.push(text), false);
    line.update({ progress: 1 });
    line.update({ progress: 2 });
    line.done();
    expect(written).toEqual(['⋯ files.index 1\n']);
  });
});
