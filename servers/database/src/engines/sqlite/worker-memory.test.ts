import { describe, expect, it } from 'vitest';
import { anonymousMegabytes } from './worker-memory.js';

/** The lines of /proc/<pid>/status that matter, as Linux writes them. */
const status = (lines: string[]) => `Name:\tnode\nState:\tS (sleeping)\n${lines.join('\n')}\nThreads:\t7\n`;

describe('the memory a worker is held to', () => {
  it('is its anonymous memory, not the pages of the database file it mapped and read', () => {
    // A scan of a 2 GB file through mmap: 2.1 GB resident, 60 MB of it the worker's own.
    const text = status([
      'VmRSS:\t 2150400 kB',
      'RssAnon:\t   61440 kB',
      'RssFile:\t 2088960 kB',
      'RssShmem:\t       0 kB',
    ]);
    expect(anonymousMegabytes(text)).toBe(60);
  });

  it('is the whole resident size on a kernel without RssAnon', () => {
    expect(anonymousMegabytes(status(['VmRSS:\t  102400 kB']))).toBe(100);
  });

  it('is unknown when the status says neither', () => {
    expect(anonymousMegabytes(status([]))).toBeUndefined();
  });
});
