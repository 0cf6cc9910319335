import { describe, expect, it } from 'vitest';
import type { ContentPart } from '../models/messages.js';
import { imageSize, imageTokens } from './image-size.js';
import { pagingArguments } from './paging-arguments.js';
import { boundResultParts, estimateTextTokens } from './result-budget.js';

// A 1x1 PNG and a PNG header claiming 1000x800 pixels (only the header is read).
const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
function pngHeader(width: number, height: number): string {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString('base64');
}

const budget = (maxTokens: number, paging: string[] = []) => ({
  maxTokens,
  toolName: 'files__read_log',
  pagingArguments: paging,
});

describe('boundResultParts', () => {
  it('passes a result within the budget through as it was', () => {
    const parts: ContentPart[] = [{ type: 'text', text: 'short' }];
    expect(boundResultParts(parts, budget(100))).toEqual({ parts });
  });

  it('cuts at a line break, says what was cut, and names the paging arguments of the tool', () => {
    const text = Array.from({ length: 400 }, (_, index) => `line ${index + 1} of the log`).join('\n');
    const { parts, cut } = boundResultParts([{ type: 'text', text }], budget(500, ['offset', 'limit']));
    const kept = parts[0]?.type === 'text' ? parts[0].text : '';
    expect(kept.endsWith('of the log\n')).toBe(true);
    expect(estimateTextTokens(kept)).toBeLessThanOrEqual(500);
    expect(kept.length).toBeGreaterThan(1600);
    const note = parts[1]?.type === 'text' ? parts[1].text : '';
    const shownLines = kept.split('\n').length - 1;
    expect(note).toContain(`this result is about ${estimateTextTokens(text).toLocaleString('en-US')} tokens`);
    expect(note).toContain('over the limit of 500 tokens per result');
    expect(note).toContain(`through line ${shownLines} of 400`);
    expect(note).toContain('call files__read_log again with its paging arguments (offset, limit)');
    expect(cut).toMatchObject({ maxTokens: 500, shownCharacters: kept.length, totalCharacters: text.length });
  });

  it('without paging arguments, tells the model to ask for less; never splits a character', () => {
    const text = 'ééééé'.repeat(1000);
    const { parts } = boundResultParts([{ type: 'text', text }], budget(101));
    const kept = parts[0]?.type === 'text' ? parts[0].text : '';
    expect(kept).toMatch(/^é+$/);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(404);
    expect(parts[1]?.type === 'text' && parts[1].text).toContain('asking for less: a narrower query');
  });

  it('counts images by their pixel size and leaves out those over the budget', () => {
    const big = pngHeader(1000, 800); // 800,000 pixels: about 1,067 tokens
    expect(imageSize(big)).toEqual({ width: 1000, height: 800 });
    expect(imageTokens(big)).toBe(1067);
    expect(imageTokens(tinyPng)).toBe(1);
    const parts: ContentPart[] = [
      { type: 'image', data: tinyPng, mimeType: 'image/png' },
      { type: 'text', text: 'x'.repeat(3000) },
      { type: 'image', data: big, mimeType: 'image/png' },
    ];
    const bounded = boundResultParts(parts, budget(1000));
    expect(bounded.parts.map((part) => part.type)).toEqual(['image', 'text', 'text']);
    expect(bounded.cut).toMatchObject({ omittedImages: 1, shownCharacters: 3000 });
    expect(bounded.parts[2]?.type === 'text' && bounded.parts[2].text).toContain('left out: 1 image');
  });

  it('cuts structured content given as JSON after a comma', () => {
    const json = JSON.stringify({ rows: Array.from({ length: 300 }, (_, id) => ({ id, name: `row ${id}` })) });
    const { parts } = boundResultParts([{ type: 'text', text: json }], budget(200, ['cursor']));
    const kept = parts[0]?.type === 'text' ? parts[0].text : '';
    expect(kept.endsWith(',')).toBe(true);
    expect(parts[1]?.type === 'text' && parts[1].text).toContain('(cursor)');
  });
});

describe('imageSize', () => {
  it('reads the pixel size of GIF, JPEG and WebP headers, and counts an unknown image at the most', () => {
    const gif = Buffer.from('GIF89a\x40\x01\xc8\x00', 'latin1').toString('base64');
    expect(imageSize(gif)).toEqual({ width: 320, height: 200 });
    // SOI, an APP0 segment of 16 bytes, then a baseline frame header: height 480, width 640.
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.alloc(14),
      Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03]),
    ]).toString('base64');
    expect(imageSize(jpeg)).toEqual({ width: 640, height: 480 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(1919, 24, 3);
    webp.writeUIntLE(1079, 27, 3);
    expect(imageSize(webp.toString('base64'))).toEqual({ width: 1920, height: 1080 });
    // 2,073,600 pixels: providers scale it down, so it counts at the most, 1,600 tokens.
    expect(imageTokens(webp.toString('base64'))).toBe(1600);
    expect(imageTokens(Buffer.from('not an image').toString('base64'))).toBe(1600);
  });
});

describe('pagingArguments', () => {
  it('finds the parameters that page or window a result, in their own spelling', () => {
    const schema = {
      type: 'object',
      properties: { path: {}, head: {}, tail: {}, start_line: {}, pageToken: {}, maxResults: {}, query: {} },
    };
    expect(pagingArguments(schema)).toEqual(['head', 'tail', 'start_line', 'pageToken', 'maxResults']);
    expect(pagingArguments(undefined)).toEqual([]);
  });
});
