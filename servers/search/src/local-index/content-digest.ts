import { hash } from 'node:crypto';

/** Bytes of the digest the index stores per file: enough to tell an edit from the indexed text, small per row. */
const digestBytes = 8;

/**
 * The digest of a file's bytes that the index stores, to tell at query time whether the file still holds them.
 * `hash` in one call: for the indexer's hundreds of thousands of small inputs it takes less than half the time of a
 * `createHash` object per input.
 */
export function contentDigest(bytes: Uint8Array): Buffer {
  return hash('sha1', bytes, 'buffer').subarray(0, digestBytes);
}
