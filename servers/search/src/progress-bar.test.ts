import { describe, expect, it } from 'vitest';
import { createProgressBar } from './progress-bar.js';

function output(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, columns: 100, write: (text: string) => written.push(text) } };
}

const run = (bar: ReturnType<typeof createProgressBar>) => {
  bar.update({ directory: '/docs', phase: 'scanning', done: 0 });
  for (let done = 0; done <= 2000; done += 50) bar.update({ directory: '/docs', phase: 'indexing', done, total: 2000 });
  bar.update({ directory: '/docs', phase: 'merging', done: 2000, total: 2000 });
  bar.update({ directory: '/docs', phase: 'done', done: 2000, total: 2000 });
  bar.done();
};

describe('createProgressBar', () => {
  it('redraws one line in place on a terminal', () => {
    const { written, stream } = output(true);
    run(createProgressBar(stream));
    expect(written.every((text) => text.startsWith('\r\u001b[2K') || text === '\n')).toBe(true);
    expect(written.at(-2)).toContain('Indexed [');
    expect(written.at(-1)).toBe('\n');
  });

  it('writes a few plain lines, one per tenth, when not a terminal', () => {
    const { written, stream } = output(false);
    run(createProgressBar(stream));
    expect(written.join('')).not.toContain('\r');
    expect(written.every((text) => text.endsWith('\n'))).toBe(true);
    expect(written.length).toBeLessThanOrEqual(15);
    expect(written.some((text) => text.startsWith('Merging the index after 2,000'))).toBe(true);
    expect(written.at(-1)).toMatch(/^Indexed \[#+\] 100% 2,000\/2,000 changed files\n$/);
  });

  it('says how many changed files are indexed while the scan goes on', () => {
    const { written, stream } = output(true);
    const bar = createProgressBar(stream);
    bar.update({ directory: '/docs', phase: 'scanning', done: 12_000, stored: 4_000 });
    expect(written.at(-1)).toContain('Scanning /docs: 12,000 files, 4,000 changed files indexed');
  });
});
