import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { contentDigest } from './content-digest.js';
import type { PassageInput } from './index-database.js';
import { splitPassages } from './passages.js';
import { extractText } from './text-extraction.js';

/** What the index stored about a file, enough to find its passages again and to tell whether it changed since. */
export interface StoredText {
  path: string;
  size: number;
  mtimeMs: number;
  digest: Uint8Array;
}

/** The passages of a file as they were indexed, or why they cannot be shown (the file changed or cannot be read). */
export type StoredPassages = { passages: PassageInput[] } | { changed: true };

// No final symlink followed, no blocking on a FIFO swapped in, no controlling tty.
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

function readExactly(descriptor: number, size: number): Buffer | undefined {
  // One byte more than stored: a file that grew since its fstat reads as changed, and no more than that is read.
  const bytes = Buffer.allocUnsafe(size + 1);
  let total = 0;
  while (total < bytes.length) {
    const read = readSync(descriptor, bytes, total, bytes.length - total, total);
    if (read === 0) break;
    total += read;
  }
  return total === size ? bytes.subarray(0, size) : undefined;
}

/**
 * Reads a file again to recover the passages the index holds only as terms (the index keeps no copy of the text):
 * the same extraction and split as at indexing time. The file must be the very one indexed: a regular file at the
 * same real path (no link swapped in on the way), with the stored size, mtime and digest; anything else reads as
 * changed, so a hit never shows a snippet or a line number from text that the ranking did not see.
 */
export function readStoredPassages(document: StoredText): StoredPassages {
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
    const bytes = readExactly(descriptor, document.size);
    if (!bytes || !contentDigest(bytes).equals(document.digest)) return { changed: true };
    return { passages: splitPassages(extractText(document.path, bytes).text).passages };
  } catch {
    return { changed: true };
  } finally {
    closeSync(descriptor);
  }
}
