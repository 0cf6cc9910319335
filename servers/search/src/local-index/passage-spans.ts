import { contentDigest } from './content-digest.js';
import type { PassageInput } from './index-database.js';

/** Where one passage lies in its file: the byte range that reads back as its text, its first line, its digest. */
export interface PassageSpan {
  start: number;
  length: number;
  /** The 1-based line the passage starts at. */
  line: number;
  /** `passageDigest` of the range's bytes, to tell at query time whether the file still holds them. */
  digest: Buffer;
}

/**
 * Bytes of a passage's digest: 4 (a file's whole digest has 8). It tells an edit of the passage under the same size
 * and mtime from the indexed bytes but for one chance in 2^32; 8 bytes would make the index larger than the corpus.
 */
const digestBytes = 4;

/** The digest of a passage's bytes that the index stores. */
export function passageDigest(range: Uint8Array): Buffer {
  return contentDigest(range).subarray(0, digestBytes);
}

/**
 * The text of a passage read back from its byte range: decoded as the indexer decodes the whole file (a byte-order
 * mark dropped at the start of the file) and its line breaks made `\n`, as the passages are split. A range starts
 * after a newline byte, which is never part of a multi-byte character, so it decodes as it did within the file.
 */
export function passageText(range: Uint8Array, atFileStart: boolean): string {
  let text = Buffer.from(range.buffer, range.byteOffset, range.byteLength).toString('utf8');
  if (atFileStart) text = text.replace(/^\uFEFF/, '');
  return text.includes('\r') ? text.split(/\r?\n/).join('\n') : text;
}

/** The byte offset where each line of `bytes` starts (lines end at `\n`, as `splitPassages` splits them). */
function lineStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) starts.push(at + 1);
  return starts;
}

function countLines(body: string): number {
  let lines = 1;
  for (let at = body.indexOf('\n'); at !== -1; at = body.indexOf('\n', at + 1)) lines++;
  return lines;
}

/**
 * The byte range of each passage of a file, or undefined when some passage is not a stretch of the file's bytes as
 * they are (HTML, whose tags and entities the extraction rewrites): such a file's hits read the whole file again.
 * Each range is checked to read back as its passage, so a hit that reads only its range shows exactly what was
 * indexed.
 */
export function passageSpans(bytes: Uint8Array, passages: readonly PassageInput[]): PassageSpan[] | undefined {
  const starts = lineStarts(bytes);
  const spans: PassageSpan[] = [];
  for (const passage of passages) {
    const first = passage.line - 1;
    const next = first + countLines(passage.body);
    const start = starts[first];
    if (start === undefined || next > starts.length) return undefined;
    // The range ends before the last line's break (\n or \r\n), or at the end of the file.
    let end = bytes.length;
    const nextStart = starts[next];
    if (nextStart !== undefined) {
      end = nextStart - 1;
      if (end - 1 >= (starts[next - 1] ?? 0) && bytes[end - 1] === 13) end--;
    }
    const range = bytes.subarray(start, end);
    if (passageText(range, start === 0) !== passage.body) return undefined;
    spans.push({ start, length: end - start, line: passage.line, digest: passageDigest(range) });
  }
  return spans;
}

function writeVarint(out: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/**
 * The spans as stored in `documents.spans`: per passage, in order, the gap since the previous range's end, the
 * length and the line step as variable-length integers, then the 4-byte digest (about 8 bytes a passage).
 */
export function encodeSpans(spans: readonly PassageSpan[]): Buffer {
  const out: number[] = [];
  let end = 0;
  let line = 0;
  for (const span of spans) {
    writeVarint(out, span.start - end);
    writeVarint(out, span.length);
    writeVarint(out, span.line - line);
    for (const byte of span.digest.subarray(0, digestBytes)) out.push(byte);
    end = span.start + span.length;
    line = span.line;
  }
  return Buffer.from(out);
}

/** The span of passage `index` (0-based) from `encodeSpans`' bytes; undefined past the last one or on bad bytes. */
export function spanAt(encoded: Uint8Array, index: number): PassageSpan | undefined {
  let at = 0;
  const readVarint = (): number | undefined => {
    let value = 0;
    let scale = 1;
    while (at < encoded.length) {
      const byte = encoded[at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
    return undefined;
  };
  let end = 0;
  let line = 0;
  for (let passage = 0; passage <= index; passage++) {
    const gap = readVarint();
    const length = readVarint();
    const step = readVarint();
    if (gap === undefined || length === undefined || step === undefined || at + digestBytes > encoded.length) {
      return undefined;
    }
    const start = end + gap;
    end = start + length;
    line += step;
    if (passage === index) {
      return { start, length, line, digest: Buffer.from(encoded.subarray(at, at + digestBytes)) };
    }
    at += digestBytes;
  }
  return undefined;
}
