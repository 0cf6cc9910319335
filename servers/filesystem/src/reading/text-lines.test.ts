import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type LineWindow, readLines } from './text-lines.js';

const directory = mkdtempSync(join(tmpdir(), 'mcpkit-lines-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function read(content: string | Buffer, window: Partial<LineWindow>) {
  const file = join(directory, `f-${Math.random()}`);
  writeFileSync(file, content);
  const handle = await open(file, 'r');
  try {
    return await readLines(handle, { budget: 1_000_000, ...window });
  } finally {
    await handle.close();
  }
}

describe('readLines', () => {
  const fifty = Array.from({ length: 50 }, (_, index) => `line ${index + 1}`).join('\r\n');

  it('reads head, ranges and tail, dropping CR and the BOM', async () => {
    expect((await read(`\ufeff${fifty}`, { head: 2 })).text).toBe('line 1\nline 2');
    expect((await read(fifty, { offset: 49 })).text).toBe('line 49\nline 50');
    expect((await read(fifty, { tail: 3 })).text).toBe('line 48\nline 49\nline 50');
    expect((await read('', {})).text).toBe('');
  });

  it('stops at the budget on a line end and says where to continue', async () => {
    const result = await read(fifty, { budget: 30 });
    expect(result).toMatchObject({ firstLine: 1, lastLine: 4, more: true, budgetCut: true });
    expect(result.text).toBe('line 1\nline 2\nline 3\nline 4');
  });

  it('shows the start of a line longer than the budget', async () => {
    const result = await read(`${'x'.repeat(200_000)}\nnext`, { budget: 100 });
    expect(result.text).toBe('x'.repeat(100));
    expect(result.more).toBe(true);
    expect(result.lastLine).toBe(0);
  });

  it('reaches the lines after a line longer than the budget, with an offset', async () => {
    const content = `${'x'.repeat(200_000)}\nsecond\nthird\n${'y'.repeat(200_000)}`;
    const result = await read(content, { budget: 100, offset: 2, limit: 2 });
    expect(result).toMatchObject({ text: 'second\nthird', firstLine: 2, lastLine: 3 });
    expect((await read(content, { budget: 100, offset: 3 })).text).toBe('third');
    expect((await read(`${'x'.repeat(200_000)}`, { budget: 100, offset: 2 })).text).toBe('');
  });

  it('shows the end of a last line longer than the budget for tail, instead of all of it or nothing', async () => {
    // Within one chunk the whole line came back (ten times the budget); past one chunk, the partial first line was
    // dropped as usual and, being the only one, left an empty answer.
    const short = await read(`y${'x'.repeat(1_000)}\n`, { tail: 1, budget: 100 });
    expect(short).toMatchObject({ text: 'x'.repeat(100), more: true, budgetCut: true });
    const long = await read(`y${'x'.repeat(300_000)}\n`, { tail: 1, budget: 100 });
    expect(long).toMatchObject({ text: 'x'.repeat(100), more: true, budgetCut: true });
    const lines = await read(`first\n${'x'.repeat(300)}\nlast\n`, { tail: 2, budget: 100 });
    expect(lines).toMatchObject({ text: `${'x'.repeat(95)}\nlast`, more: true, budgetCut: true, firstLineCut: true });
    const fits = await read(`first\n${'x'.repeat(30)}\nlast\n`, { tail: 2, budget: 100 });
    expect(fits).toMatchObject({ text: `${'x'.repeat(30)}\nlast`, more: false, budgetCut: false, firstLineCut: false });
  });

  it('shows the end of a long line that is not the last when the backward read stops on its byte cap', async () => {
    // The read backwards stops after budget x 4 bytes; the cut line it ends in was dropped as partial, so tail 2
    // answered one line with more: false, and nobody was told a line was missing.
    const content = `head\n${'a'.repeat(500_000)}\nbbbbbbbbbb\n`;
    const result = await read(content, { tail: 2, budget: 100_000 });
    expect(result).toMatchObject({ more: true, budgetCut: true, firstLineCut: true });
    expect(result.text).toBe(`${'a'.repeat(100_000 - 11)}\nbbbbbbbbbb`);
    // A cut that falls between the halves of a surrogate pair does not show half of it (997 characters of room).
    const wide = await read(`head\n${'😀'.repeat(300_000)}\nend\n`, { tail: 2, budget: 1_001 });
    expect(wide.text).toBe(`${'😀'.repeat(498)}\nend`);
  });

  it('decodes characters split across read chunks', async () => {
    const text = `${'a'.repeat(65_535)}é tail`;
    expect((await read(text, {})).text).toBe(text);
  });

  it('refuses binary content', async () => {
    await expect(read(Buffer.from([1, 0, 2]), {})).rejects.toThrow(/binary/);
  });
});

describe('readLines on hostile files', () => {
  it('stops between chunks once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(read('a\n'.repeat(100_000), { offset: 5, signal: controller.signal })).rejects.toThrow(/cancelled/);
    await expect(read('a\n'.repeat(100_000), { tail: 5, signal: controller.signal })).rejects.toThrow(/cancelled/);
  });

  it('refuses a line offset beyond the bytes one read may scan, instead of streaming the whole file', async () => {
    const text = 'short line\n'.repeat(50_000);
    await expect(read(text, { offset: 40_000, maxScanBytes: 128 * 1024 })).rejects.toThrow(
      /Line 40000 lies beyond the first 128.00 KB/,
    );
    expect((await read(text, { offset: 40_000, limit: 1, maxScanBytes: 1024 * 1024 })).text).toBe('short line');
  });
});
