import type { MarkdownPage } from './html-to-markdown.js';

// A page's plain text, for pages the Markdown conversion cannot take or did not finish. Its own module, apart from the
// DOM, Readability and Turndown: the fallback runs on a fresh worker (the one that ran out of time is ended), and a
// worker that loads only this starts in milliseconds instead of loading those packages again under the same limit.

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The HTML without the contents of script, style and noscript elements, in one pass (no backtracking). */
function withoutCode(html: string): string {
  const lower = html.toLowerCase();
  const kept: string[] = [];
  let position = 0;
  for (const match of lower.matchAll(/<(script|style|noscript)\b/g)) {
    const start = match.index as number;
    if (start < position) continue;
    kept.push(html.slice(position, start));
    const close = lower.indexOf(`</${match[1]}`, start);
    position = close === -1 ? html.length : close;
  }
  kept.push(html.slice(position));
  return kept.join(' ');
}

function decodeEntity(entity: string, code: string): string {
  const hex = /^#x/i.test(code);
  if (hex || code.startsWith('#')) {
    const point = hex ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
    return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : ' ';
  }
  return entities[code.toLowerCase()] ?? entity;
}

/**
 * The page's text without a DOM, in linear time (no pattern here rescans what it passed): for pages too large or too
 * deeply nested to convert, or whose conversion failed or ran out of time. `why` ends the note that says so.
 */
export function htmlToPlainText(
  html: string,
  why = 'the page is too large or too deeply nested to convert to Markdown safely',
): MarkdownPage {
  const title = /<title[^<>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? '';
  const text = withoutCode(html)
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, decodeEntity)
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/ *\n[ \n]*/g, '\n\n')
    .trim();
  const note = `(Plain text: ${why}.)`;
  return { title, markdown: `${note}\n\n${text}` };
}
