import { basename, extname } from 'node:path';
import { shownTitle } from '../shown-title.js';

/** Extensions of files that are never text, skipped without reading them. */
const binaryExtensions = new Set(
  (
    'png jpg jpeg gif bmp ico webp tiff psd avif heic svgz pdf zip gz tgz bz2 xz 7z rar zst tar jar war ' +
    'exe dll so dylib o a lib class pyc pyo wasm bin dat db sqlite sqlite3 woff woff2 ttf otf eot ' +
    'mp3 mp4 m4a wav ogg flac mov avi mkv webm doc docx xls xlsx ppt pptx odt iso dmg img node'
  ).split(' '),
);

const htmlExtensions = new Set(['.html', '.htm', '.xhtml']);

/** True when the extension alone says the file is binary. */
export function hasBinaryExtension(path: string): boolean {
  return binaryExtensions.has(extname(path).slice(1).toLowerCase());
}

/** True when the bytes look binary: a NUL byte in the first 8 KB, as git decides. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** The searchable text of a file and its title. */
export interface ExtractedText {
  text: string;
  title: string;
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (match, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) {
      const point = Number.parseInt(name.slice(2), 16);
      return point <= 0x10ffff ? String.fromCodePoint(point) : match;
    }
    if (name.startsWith('#')) {
      const point = Number(name.slice(1));
      return point <= 0x10ffff ? String.fromCodePoint(point) : match;
    }
    return entities[name.toLowerCase()] ?? match;
  });
}

/**
 * `indexOf` that remembers its last answer: asked again from a position before that answer, it gives it without
 * rescanning, so a file of many openers and no closer (`<<<<`, `<!--<!--`) costs one scan, not one per opener.
 */
function rememberingIndexOf(haystack: string, needle: string): (from: number) => number {
  let searchedFrom = Number.POSITIVE_INFINITY;
  let found = -1;
  return (from) => {
    if (from >= searchedFrom && (found === -1 || found >= from)) return found;
    searchedFrom = from;
    found = haystack.indexOf(needle, from);
    return found;
  };
}

/**
 * HTML as text: tags become spaces and script/style bodies and comments are dropped, but every newline is kept so
 * that line numbers still point into the source file. One pass over the text (a hostile file of unclosed openers
 * would make the obvious regular expressions quadratic).
 */
function htmlToLineText(html: string): string {
  const keepNewlines = (text: string) => text.replace(/[^\n]/g, '');
  const lower = html.toLowerCase();
  const nextOpen = rememberingIndexOf(html, '<');
  // Each remembering search is asked from positions that only grow, so each scans the text at most once.
  const nextClose = rememberingIndexOf(html, '>');
  const nextCloseAfterEndTag = rememberingIndexOf(html, '>');
  const nextCommentEnd = rememberingIndexOf(html, '-->');
  const nextScriptEnd = rememberingIndexOf(lower, '</script');
  const nextStyleEnd = rememberingIndexOf(lower, '</style');
  const parts: string[] = [];
  let position = 0;
  while (position < html.length) {
    const open = nextOpen(position);
    if (open === -1) break;
    parts.push(decodeEntities(html.slice(position, open)));
    let end = -1;
    if (lower.startsWith('<!--', open)) {
      const close = nextCommentEnd(open + 4);
      if (close !== -1) end = close + 3;
    } else {
      const element = /^<(script|style)\b/.exec(lower.slice(open, open + 8))?.[1];
      const close = element === 'script' ? nextScriptEnd(open) : element === 'style' ? nextStyleEnd(open) : -1;
      const closeEnd = close === -1 ? -1 : nextCloseAfterEndTag(close);
      if (closeEnd !== -1) end = closeEnd + 1;
    }
    if (end !== -1) {
      parts.push(keepNewlines(html.slice(open, end)));
    } else {
      const close = nextClose(open + 1);
      if (close === -1) {
        position = open; // no tag closes any more: the rest is text
        break;
      }
      end = close + 1;
      parts.push(keepNewlines(html.slice(open, end)) || ' ');
    }
    position = end;
  }
  parts.push(decodeEntities(html.slice(position)));
  return parts.join('');
}

function titleOf(path: string, source: string, html: boolean): string {
  let title = basename(path);
  if (html) {
    // [^<>] rather than [^>]: a file of many `<title` and no `>` must not rescan to its end from each one.
    const found = /<title[^<>]*>([^<]*)<\/title>/i.exec(source)?.[1] ?? /<h1[^<>]*>([^<]*)<\/h1>/i.exec(source)?.[1];
    if (found?.trim()) title = found.trim().replace(/\s+/g, ' ');
  } else {
    const heading = /^#{1,2}[ \t]+(.+)$/m.exec(source.slice(0, 4096))?.[1];
    if (heading?.trim()) title = heading.trim();
  }
  return shownTitle(title);
}

/** Turns a text file's bytes into searchable text and a title (first Markdown heading, HTML title, or file name). */
export function extractText(path: string, bytes: Uint8Array): ExtractedText {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const html = htmlExtensions.has(extname(path).toLowerCase());
  return { text: html ? htmlToLineText(source) : source, title: titleOf(path, source, html) };
}
