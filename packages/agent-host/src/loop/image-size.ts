/** Width and height of an image in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

// Enough of the file to reach a JPEG's frame header past a typical EXIF block.
const headBytes = 64 * 1024;

function jpegSize(bytes: Buffer): ImageSize | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    const length = bytes.readUInt16BE(offset + 2);
    // Start-of-frame markers C0-CF, except C4 (Huffman tables), C8 (reserved) and CC (arithmetic coding).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

function webpSize(bytes: Buffer): ImageSize | undefined {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X' && bytes.length >= 30) {
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  if (chunk === 'VP8L' && bytes.length >= 25) {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ' && bytes.length >= 30) {
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  return undefined;
}

/** The pixel size of a base64 PNG, GIF, JPEG or WebP image, read from its header; undefined for anything else. */
export function imageSize(base64: string): ImageSize | undefined {
  const bytes = Buffer.from(base64.slice(0, Math.ceil((headBytes * 4) / 3 / 4) * 4), 'base64');
  if (bytes.length >= 24 && bytes.toString('latin1', 1, 4) === 'PNG' && bytes.toString('latin1', 12, 16) === 'IHDR') {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 4) === 'GIF8') {
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (bytes.length >= 16 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return webpSize(bytes);
  }
  return undefined;
}

// Providers scale a large image down to about 1.15 megapixels and charge about one token per 750 pixels, so one
// image costs at most about 1,600 tokens; one whose size cannot be read is counted at that most.
const pixelsPerToken = 750;
const maxPixels = 1_200_000;

/** Tokens an image is counted at: its pixels over 750, capped where providers scale images down. */
export function imageTokens(base64: string): number {
  const size = imageSize(base64);
  const pixels = size ? Math.min(size.width * size.height, maxPixels) : maxPixels;
  return Math.ceil(pixels / pixelsPerToken);
}
