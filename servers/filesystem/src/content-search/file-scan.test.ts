import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileScanner, type ScanSettings } from './file-scan.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-scan-')));
const root = join(base, 'root');
const outside = join(base, 'outside');
mkdirSync(root);
mkdirSync(outside);
writeFileSync(join(root, 'a.txt'), 'the needle\n');
writeFileSync(join(root, 'b.txt'), 'nothing\n');
writeFileSync(join(root, 'big.txt'), `needle ${'x'.repeat(300_000)}\n`);
writeFileSync(join(root, 'bin.dat'), Buffer.from([110, 101, 101, 100, 108, 101, 0]));
writeFileSync(join(outside, 'secret.txt'), 'needle outside\n');
symlinkSync(outside, join(root, 'link'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const settings: ScanSettings = {
  pattern: 'needle',
  literal: true,
  ignoreCase: false,
  maxBytes: 1_000_000,
  refuseHardLinks: false,
  directories: [root],
};

describe('FileScanner', () => {
  it('returns text for files that may match, nothing for others, and skips binary and too large files', () => {
    const scanner = new FileScanner(settings);
    const files = ['a.txt', 'b.txt', 'bin.dat', 'missing.txt'].map((name) => ({ directory: root, name }));
    expect(scanner.scan({ files })).toEqual([
      { text: 'the needle\n', matches: [0] },
      null,
      { skipped: 'binary' },
      { skipped: 'unreadable' },
    ]);
    const small = new FileScanner({ ...settings, maxBytes: 1_000 });
    expect(small.scan({ files: [{ directory: root, name: 'big.txt' }] })).toEqual([{ skipped: 'large' }]);
  });

  it('never reads through a link or from a directory outside the roots', () => {
    const scanner = new FileScanner(settings);
    expect(scanner.scan({ files: [{ directory: join(root, 'link'), name: 'secret.txt' }] })).toEqual([
      { skipped: 'unreadable' },
    ]);
    expect(scanner.scan({ files: [{ directory: outside, name: 'secret.txt' }] })).toEqual([{ skipped: 'unreadable' }]);
  });

  it('defers matching files past the per-job text budget, and returns a file alone in full', () => {
    for (let index = 0; index < 16; index++) {
      writeFileSync(join(root, `wide-${index}.txt`), `needle ${'y'.repeat(300_000)}\n`);
    }
    const scanner = new FileScanner(settings);
    const files = Array.from({ length: 16 }, (_, index) => ({ directory: root, name: `wide-${index}.txt` }));
    const outcomes = scanner.scan({ files });
    expect(outcomes.filter((outcome) => outcome && 'deferred' in outcome).length).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome && 'text' in outcome).length).toBeGreaterThan(0);
    const [alone] = scanner.scan({ files: [{ directory: root, name: 'wide-15.txt' }] });
    expect(alone && 'text' in alone && alone.text.length).toBeGreaterThan(300_000);
  });
});
