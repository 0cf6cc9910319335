import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBody } from './content-decoding.js';

const text = Buffer.from('Lighthouse keepers log the weather. '.repeat(100));
const megabyte = 1024 * 1024;

describe('decodeBody', () => {
  it('decodes gzip, br, deflate (zlib-wrapped and raw) and passes identity through', async () => {
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(text)],
      ['x-gzip', gzipSync(text)],
      ['br', brotliCompressSync(text)],
      ['deflate', deflateSync(text)],
      ['deflate', deflateRawSync(text)],
      ['', text],
      ['identity', text],
    ] as const) {
      expect((await decodeBody(bytes, encoding, megabyte, false)).equals(text), encoding).toBe(true);
    }
  });

  it('decodes a body cut at the byte cap as far as it goes', async () => {
    const whole = gzipSync(Buffer.from('word '.repeat(200_000)));
    const decoded = await decodeBody(whole.subarray(0, Math.floor(whole.length / 2)), 'gzip', 4 * megabyte, true);
    expect(decoded.length).toBeGreaterThan(0);
    expect(decoded.toString().startsWith('word word')).toBe(true);
  });

  it('refuses a body that inflates past the cap, and one it cannot decode, with a sentence', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * megabyte));
    await expect(decodeBody(bomb, 'gzip', megabyte, false)).rejects.toThrow(
      'The page decompresses to more than 1 MB; refused as too large.',
    );
    await expect(decodeBody(Buffer.from('not gzip'), 'gzip', megabyte, false)).rejects.toThrow(
      "The page's gzip encoding could not be decoded.",
    );
    await expect(decodeBody(text, 'compress', megabyte, false)).rejects.toThrow(
      'The page uses the unsupported content encoding "compress".',
    );
  });

  it('decodes off the main thread: the event loop turns while a 20 MB page inflates', async () => {
    const page = gzipSync(Buffer.alloc(20 * megabyte, 'a'));
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const decoded = await decodeBody(page, 'gzip', 20 * megabyte, false);
    // Decoded on the main thread, the whole inflate would run before the loop's next turn.
    expect(turned).toBe(true);
    expect(decoded.length).toBe(20 * megabyte);
  });
});
