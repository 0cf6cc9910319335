import { setImmediate as nextTurn } from 'node:timers/promises';

/** Some lines of a text and how many lines it has in all. */
export interface LineWindow {
  /** The lines from `offset` on, at most `limit`, without their line endings. */
  lines: string[];
  /** Lines in the whole text: its line feeds plus one, as `split(/\r?\n/)` counts them. */
  total: number;
}

/** The scan yields to the event loop after this long, so a file of millions of short lines never holds it. */
const sliceMs = 10;

/**
 * Cuts lines `offset` (1-based) to `offset + limit - 1` (fewer once they hold `maxCharacters`) out of UTF-8 bytes and counts the rest, decoding only the
 * lines it keeps (a line feed byte never occurs inside a multi-byte character). A 16 MB file of empty lines made
 * `toString().split()` build an array of 16 million strings in one go; this scan shares the loop instead.
 */
export async function lineWindow(
  bytes: Buffer,
  window: { offset: number; limit: number; maxCharacters?: number; signal?: AbortSignal },
): Promise<LineWindow> {
  const lines: string[] = [];
  let last = window.offset + window.limit - 1;
  let kept = 0;
  let total = 1;
  let start = 0;
  let sliceStart = performance.now();
  for (let steps = 0; ; steps++) {
    if ((steps & 0xfff) === 0 && performance.now() - sliceStart > sliceMs) {
      await nextTurn();
      window.signal?.throwIfAborted();
      sliceStart = performance.now();
    }
    const feed = bytes.indexOf(10, start);
    const end = feed === -1 ? bytes.length : feed;
    if (total >= window.offset && total <= last) {
      const cut = end > start && bytes[end - 1] === 13 ? end - 1 : end;
      const line = bytes.toString('utf8', start, cut);
      lines.push(line);
      kept += line.length;
      // Lines past `maxCharacters` are not kept (the one that crosses it is): they are counted only.
      if (window.maxCharacters !== undefined && kept >= window.maxCharacters) last = total;
    }
    if (feed === -1) return { lines, total };
    total++;
    start = feed + 1;
  }
}
