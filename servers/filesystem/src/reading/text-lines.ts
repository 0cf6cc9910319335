import { StringDecoder } from 'node:string_decoder';
import { ToolError } from '@mcpkit/server-kit';
import type { ReadableFile } from '../confinement/descriptor-file.js';
import { formatSize } from './format-size.js';

/** Which lines to read; `offset` is 1-based. */
export interface LineWindow {
  head?: number;
  tail?: number;
  offset?: number;
  limit?: number;
  /** Characters of text at most; the cut falls at a line end when one is near. */
  budget: number;
  /** Stops the read (with a ToolError) between chunks once aborted. */
  signal?: AbortSignal;
  /** Bytes read at most to reach and fill the window (default {@link maxScanBytes}); a window beyond is refused. */
  maxScanBytes?: number;
  /**
   * The file's size when it was opened: a read that reaches it ends there without asking the disk once more (saves a
   * round trip per file). A size of 0 is not trusted (files in /proc report it) and the file is read to its end.
   */
  size?: number;
}

/** The lines read, and where they sit in the file. */
export interface LinesRead {
  text: string;
  /** 1-based number of the first line shown (for tail: counted from the end, so unknown: 0). */
  firstLine: number;
  /** Number of the last line shown completely. */
  lastLine: number;
  /** True when lines after the last one shown were not returned. */
  more: boolean;
  /** True when the budget, not the window, ended the read. */
  budgetCut: boolean;
  /** For tail: the first line shown is only the end of its line (it did not fit the budget whole). */
  firstLineCut?: boolean;
}

const chunkSize = 64 * 1024;

/** Bytes one read scans at most: a line offset deep in a huge (or sparse) file must not stream the whole file. */
export const maxScanBytes = 256 * 1024 * 1024;

function assertNotCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ToolError('The request was cancelled.');
}

function refuseBinary(chunk: Buffer, length: number): void {
  if (chunk.subarray(0, Math.min(length, 8192)).includes(0)) {
    throw new ToolError('The file looks binary (it contains NUL bytes); use read_media_file for binary files.');
  }
}

/** Reads a window of lines from the start of a text file, streaming: memory stays within the budget. */
export async function readLines(handle: ReadableFile, window: LineWindow): Promise<LinesRead> {
  if (window.tail !== undefined) return readTail(handle, window.tail, window.budget, window.signal);
  const scanLimit = window.maxScanBytes ?? maxScanBytes;
  const first = window.offset ?? 1;
  const wanted = window.head ?? window.limit ?? Number.POSITIVE_INFINITY;
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.allocUnsafe(chunkSize);
  const kept: string[] = [];
  let keptChars = 0;
  let complete = 0;
  let lineNumber = 1;
  let pending = '';
  let position = 0;
  let ended = false;
  let budgetCut = false;
  // Inside a line before the window that is longer than the budget: its rest is dropped up to the next line break.
  let skippingLongLine = false;
  const size = window.size ?? 0;
  const take = (line: string): boolean => {
    // Returns false when reading should stop.
    if (lineNumber >= first) {
      if (kept.length >= wanted) return false;
      const cost = line.length + 1;
      if (keptChars + cost > window.budget) {
        budgetCut = true;
        if (kept.length === 0) kept.push(line.slice(0, window.budget)); // one huge line: show its start
        return false;
      }
      kept.push(line);
      keptChars += cost;
      complete++;
    }
    lineNumber++;
    return true;
  };
  let stopped = false;
  while (!stopped) {
    assertNotCancelled(window.signal);
    if (position >= scanLimit) {
      throw new ToolError(
        `Line ${first} lies beyond the first ${formatSize(scanLimit)} of the file, which is as far as one read scans; use tail for the end of the file, or grep to find the line.`,
      );
    }
    const reachedSize = size > 0 && position >= size;
    const { bytesRead } = reachedSize ? { bytesRead: 0 } : await handle.read(buffer, 0, chunkSize, position);
    if (position === 0) refuseBinary(buffer, bytesRead);
    position += bytesRead;
    if (bytesRead === 0) {
      ended = true;
      pending += decoder.end();
      break;
    }
    pending += decoder.write(buffer.subarray(0, bytesRead));
    if (position === bytesRead && pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
    let start = 0;
    if (skippingLongLine) {
      const newline = pending.indexOf('\n');
      if (newline === -1) {
        pending = '';
        continue;
      }
      skippingLongLine = false;
      lineNumber++;
      start = newline + 1;
    }
    for (let newline = pending.indexOf('\n', start); newline !== -1; newline = pending.indexOf('\n', start)) {
      const end = newline > start && pending.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      if (!take(pending.slice(start, end))) {
        stopped = true;
        break;
      }
      start = newline + 1;
    }
    pending = pending.slice(start);
    if (!stopped && pending.length > window.budget + 1) {
      if (lineNumber < first) {
        // A huge line before the window: skip it without holding it, and go on to the lines asked for.
        skippingLongLine = true;
        pending = '';
      } else {
        // A line longer than the whole budget: show its start and stop.
        take(pending);
        stopped = true;
      }
    }
  }
  if (ended && pending !== '' && !stopped && !skippingLongLine) {
    if (!take(pending)) stopped = true;
    else pending = '';
  }
  const firstShown = Math.max(first, 1);
  return {
    text: kept.join('\n'),
    firstLine: firstShown,
    lastLine: firstShown + complete - 1,
    more: stopped || (!ended && pending !== ''),
    budgetCut,
  };
}

async function readTail(
  handle: ReadableFile,
  count: number,
  budget: number,
  signal: AbortSignal | undefined,
): Promise<LinesRead> {
  const { size } = await handle.stat();
  const chunks: Buffer[] = [];
  let position = size;
  let newlines = 0;
  let bytes = 0;
  // Read backwards until enough line breaks (plus the one ending the file) or enough bytes for the budget.
  while (position > 0 && newlines <= count && bytes < budget * 4) {
    assertNotCancelled(signal);
    const length = Math.min(chunkSize, position);
    position -= length;
    const chunk = Buffer.allocUnsafe(length);
    await handle.read(chunk, 0, length, position);
    chunks.unshift(chunk);
    bytes += length;
    for (const byte of chunk) if (byte === 10) newlines++;
  }
  const joined = Buffer.concat(chunks);
  refuseBinary(joined, joined.length);
  let text = joined.toString('utf8').replace(/\r\n/g, '\n');
  if (position === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  // Unless the read reached the start of the file, its first line is partial: the read stopped on its byte cap (or had
  // enough line breaks, and then that line is not among the last `count`).
  const startUnread = position > 0 && lines.length <= count;
  const selected = lines.slice(-count);
  // The newest lines that fit whole; the next older one, if it does not fit whole (or its start was never read), shows
  // its end in the room left, and the answer says so.
  const shown: string[] = [];
  let used = 0;
  let budgetCut = false;
  let firstLineCut = false;
  for (let index = selected.length - 1; index >= 0; index--) {
    const line = selected[index] ?? '';
    const separator = shown.length > 0 ? 1 : 0;
    const partial = startUnread && index === 0;
    if (!partial && used + separator + line.length <= budget) {
      shown.unshift(line);
      used += separator + line.length;
      continue;
    }
    budgetCut = true;
    const room = budget - used - separator;
    if (room > 0) {
      shown.unshift(endOf(line, room));
      firstLineCut = true;
    }
    break;
  }
  return { text: shown.join('\n'), firstLine: 0, lastLine: 0, more: budgetCut, budgetCut, firstLineCut };
}

/** The last `room` characters of a line, without half of a surrogate pair at the start. */
function endOf(line: string, room: number): string {
  if (line.length <= room) return line;
  const end = line.slice(-room);
  return /^[\udc00-\udfff]/.test(end) ? end.slice(1) : end;
}
