import { describe, expect, it } from 'vitest';
import { encodeSpans, type PassageSpan, passageSpans, passageText, spanAt } from './passage-spans.js';
import { splitPassages } from './passages.js';
import { extractText } from './text-extraction.js';

/** The passages of a file as the indexer finds them, and their spans. */
function indexed(path: string, bytes: Buffer) {
  const { passages } = splitPassages(extractText(path, bytes).text);
  return { passages, spans: passageSpans(bytes, passages) };
}

const paragraph = (words: string) => `${Array.from({ length: 30 }, (_, line) => `${words} ${line}`).join('\n')}\n\n`;

describe('passageSpans', () => {
  it.each([
    ['plain lines with a final newline', Buffer.from(`${paragraph('alpha')}${paragraph('beta')}${paragraph('gamma')}`)],
    ['no final newline', Buffer.from(`${paragraph('alpha')}last line without a break`)],
    ['CRLF line breaks and a lone CR', Buffer.from(paragraph('alpha\rcarriage').replaceAll('\n', '\r\n').repeat(3))],
    ['a byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(paragraph('alpha').repeat(3))])],
    [
      'invalid UTF-8 and multi-byte characters',
      Buffer.concat([
        Buffer.from('héllo wörld\n'),
        Buffer.from([0xe2, 0x82, 0x0a, 0xff, 0x0a]),
        Buffer.from(paragraph('日本語')),
      ]),
    ],
    ['blank lines around paragraphs', Buffer.from(`\n\n\n${paragraph('alpha')}\n\n\n\n${paragraph('beta')}\n\n`)],
  ])('gives each passage a byte range that reads back as exactly its text: %s', (_, bytes) => {
    const { passages, spans } = indexed('notes.md', bytes);
    expect(passages.length).toBeGreaterThan(0);
    expect(spans).toHaveLength(passages.length);
    passages.forEach((passage, index) => {
      const span = spans?.[index] as PassageSpan;
      expect(span.line).toBe(passage.line);
      expect(passageText(bytes.subarray(span.start, span.start + span.length), span.start === 0)).toBe(passage.body);
    });
  });

  it('gives none for HTML, whose passages are not stretches of the file', () => {
    const html = Buffer.from(
      `<html><title>T</title><body>\n<p>Tom &amp; Jerry</p>\n${paragraph('alpha')}</body></html>`,
    );
    expect(indexed('page.html', html).spans).toBeUndefined();
  });

  it('stores the spans compactly and finds each again', () => {
    const bytes = Buffer.from(paragraph('alpha').repeat(200));
    const { spans } = indexed('notes.md', bytes);
    const encoded = encodeSpans(spans ?? []);
    expect(encoded.length).toBeLessThanOrEqual((spans?.length ?? 0) * 9);
    spans?.forEach((span, index) => {
      expect(spanAt(encoded, index)).toEqual(span);
    });
    expect(spanAt(encoded, spans?.length ?? 0)).toBeUndefined();
    expect(spanAt(encoded.subarray(0, encoded.length - 1), (spans?.length ?? 1) - 1)).toBeUndefined();
  });
});
