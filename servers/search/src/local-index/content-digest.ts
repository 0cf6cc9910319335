import { createHash } from 'node:crypto';

/** Bytes of the digest the index keeps per file: enough to tell an edit from the indexed text, small per row. */
const digestBytes = 8;

/** The digest of a file's bytes that the index stores, to tell at query time whether the file still holds them. */
export function contentDigest(bytes: Uint8Array): Buffer {
  return createHash('sha1').update(bytes).digest().subarray(0, digestBytes);
}
