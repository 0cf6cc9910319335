import { basename, extname } from 'node:path';

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

/**
 * HTML as text: tags become spaces and script/style bodies are dropped, but every newline is kept so that line
 * numbers still point into the source file.
 */
function htmlToLineText(html: string): string {
  const keepNewlines = (match: string) => match.replace(/[^\n]/g, '');
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, keepNewlines)
    .replace(/<!--[\s\S]*?-->/g, keepNewlines)
    .replace(/<[^>]*>/g, (match) => keepNewlines(match) || ' ')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (match, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return entities[name.toLowerCase()] ?? match;
    });
}

function titleOf(path: string, source: string, html: boolean): string {
  if (html) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(source)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(source)?.[1];
    if (title?.trim()) return title.trim().replace(/\s+/g, ' ');
  } else {
    const heading = /^#{1,2}[ \t]+(.+)$/m.exec(source.slice(0, 4096))?.[1];
    if (heading?.trim()) return heading.trim();
  }
  return basename(path);
}

/** Turns a text file's bytes into searchable text and a title (first Markdown heading, HTML title, or file name). */
export function extractText(path: string, bytes: Uint8Array): ExtractedText {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const html = htmlExtensions.has(extname(path).toLowerCase());
  return { text: html ? htmlToLineText(source) : source, title: titleOf(path, source, html) };
}
