import { describe, expect, it } from 'vitest';
import { lineWindow } from './line-window.js';

describe('lineWindow', () => {
  it('cuts lines as split(/\\r?\\n/) would, decoding only those kept', async () => {
    const text = 'one\r\ntwo ü\nthree\n\nfive\n';
    const bytes = Buffer.from(text);
    const expected = text.split(/\r?\n/);
    expect(await lineWindow(bytes, { offset: 1, limit: 100 })).toEqual({ lines: expected, total: expected.length });
    expect(await lineWindow(bytes, { offset: 2, limit: 2 })).toEqual({ lines: ['two ü', 'three'], total: 6 });
    expect(await lineWindow(bytes, { offset: 9, limit: 2 })).toEqual({ lines: [], total: 6 });
    expect(await lineWindow(Buffer.alloc(0), { offset: 1, limit: 2 })).toEqual({ lines: [''], total: 1 });
  });

  it('keeps no more lines once they hold maxCharacters, the line that crosses it whole, and still counts all', async () => {
    const bytes = Buffer.from('aaaa\nbbbb\ncccc\ndddd\n');
    expect(await lineWindow(bytes, { offset: 1, limit: 10, maxCharacters: 6 })).toEqual({
      lines: ['aaaa', 'bbbb'],
      total: 5,
    });
    expect(await lineWindow(bytes, { offset: 2, limit: 10, maxCharacters: 4 })).toEqual({ lines: ['bbbb'], total: 5 });
  });

  it('counts millions of empty lines in slices, letting timers run in between', async () => {
    const bytes = Buffer.alloc(8 * 1024 * 1024, 10);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    const window = await lineWindow(bytes, { offset: 3, limit: 2 });
    clearInterval(timer);
    expect(window).toEqual({ lines: ['', ''], total: bytes.length + 1 });
    // Timers fired while it ran: the loop was shared (a single held stretch would give none or one).
    if (performance.now() - started > 100) expect(ticks).toBeGreaterThan(2);
  });
});
