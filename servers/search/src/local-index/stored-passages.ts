import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { contentDigest } from './content-digest.js';
import type { PassageInput } from './index-database.js';
import { passageDigest, passageText, spanAt } from './passage-spans.js';
import { splitPassages } from './passages.js';
import { extractText } from './text-extraction.js';

/** What the index stored about a file, enough to find its passages again and to tell whether it changed since. */
export interface StoredText {
  path: string;
  size: number;
  mtimeMs: number;
  digest: Uint8Array;
  /** Each passage's byte range, line and digest (`encodeSpans`); null when the whole file is read again. */
  spans: Uint8Array | null;
}

/** One passage as it was indexed, or the sign that it cannot be shown (the file changed or cannot be read). */
export type StoredPassage = PassageInput | { changed: true };

/** The passages of a file as they were indexed, or why they cannot be shown (the file changed or cannot be read). */
export type StoredPassages = { passages: PassageInput[] } | { changed: true };

// No final symlink followed, no blocking on a FIFO swapped in, no controlling tty.
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** Reads `length` bytes at `position`, and one more when `probeEnd`; undefined when the file holds other than that. */
function readExactly(descriptor: number, position: number, length: number, probeEnd: boolean): Buffer | undefined {
  // With one byte more than stored, a file that grew since its fstat reads as changed, and no more than that is read.
  const bytes = Buffer.allocUnsafe(length + (probeEnd ? 1 : 0));
  let total = 0;
  while (total < bytes.length) {
    const read = readSync(descriptor, bytes, total, bytes.length - total, position + total);
    if (read === 0) break;
    total += read;
  }
  return total === length ? bytes.subarray(0, length) : undefined;
}

/**
 * Opens the stored file and checks that it is the very one indexed, up to its bytes: a regular file at the same real
 * path (no link swapped in on the way, none followed at the end, no FIFO waited on), of the stored size and mtime.
 * Runs `read` on the descriptor then; anything else, or any error, reads as changed.
 */
function withCheckedFile<T>(document: StoredText, read: (descriptor: number) => T | undefined): T | { changed: true } {
  let descriptor: number;
  try {
    descriptor = openSync(document.path, readFlags);
  } catch {
    return { changed: true };
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile() || stats.size !== document.size || Math.trunc(stats.mtimeMs) !== document.mtimeMs) {
      return { changed: true };
    }
    // The descriptor's own path must be the stored one: a folder on the way swapped for a link reads as changed.
    const real =
      process.platform === 'linux' ? readlinkSync(`/proc/self/fd/${descriptor}`) : realpathSync(document.path);
    if (real !== document.path) return { changed: true };
    return read(descriptor) ?? { changed: true };
  } catch {
    return { changed: true };
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Passages of a file indexed with spans, each read from its byte range alone, after one check of the whole file
 * (`withCheckedFile`) for all of them: each range's bytes must have the passage's stored digest, so a hit never shows
 * a snippet or a line number from text that the ranking did not see. One entry per index, in order.
 */
export function readStoredPassagesAt(
  document: StoredText & { spans: Uint8Array },
  indexes: readonly number[],
): StoredPassage[] {
  const changed = { changed: true } as const;
  const spans = indexes.map((index) => {
    const span = spanAt(document.spans, index);
    return span && span.start + span.length <= document.size ? span : undefined;
  });
  if (spans.every((span) => span === undefined)) return spans.map(() => changed);
  const read = withCheckedFile(document, (descriptor) =>
    spans.map((span): StoredPassage => {
      if (!span) return changed;
      const bytes = readExactly(descriptor, span.start, span.length, false);
      if (!bytes || !passageDigest(bytes).equals(span.digest)) return changed;
      return { line: span.line, body: passageText(bytes, span.start === 0) };
    }),
  );
  return 'changed' in read ? spans.map(() => changed) : read;
}

/**
 * Reads a file indexed without spans (HTML) again to recover the passages the index holds only as terms (the index
 * keeps no copy of the text): the same extraction and split as at indexing time. The file must be the very one indexed: a regular file at the
 * same real path (no link swapped in on the way), with the stored size, mtime and digest; anything else reads as
 * changed, so a hit never shows a snippet or a line number from text that the ranking did not see.
 */
export function readStoredPassages(document: StoredText): StoredPassages {
  return withCheckedFile(document, (descriptor) => {
    const bytes = readExactly(descriptor, 0, document.size, true);
    if (!bytes || !contentDigest(bytes).equals(document.digest)) return undefined;
    return { passages: splitPassages(extractText(document.path, bytes).text).passages };
  });
}
