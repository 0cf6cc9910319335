import { ToolError } from '@mcpkit/server-kit';
import type { FetchedBody } from './guarded-fetch.js';
import { htmlToMarkdown } from './html-to-markdown.js';

/** A fetched page as text for the model. */
export interface PageContent {
  title?: string;
  /** Markdown for HTML pages, the text itself for plain text and JSON. */
  content: string;
  kind: 'markdown' | 'text' | 'raw';
}

function charsetOf(contentType: string): string {
  return /charset="?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase() ?? 'utf-8';
}

function decodeText(body: Buffer, contentType: string): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

const textTypes =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-yaml|yaml|toml|csv|rss\+xml|atom\+xml|ld\+json)|[^;]*\+(json|xml))/i;

/**
 * Turns a fetched body into text by its content type: HTML becomes Markdown (unless `raw`), text and JSON pass
 * through, and anything binary is refused with a sentence saying what it was.
 */
export function toPageContent(fetched: FetchedBody, raw: boolean): PageContent {
  const type = fetched.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const looksHtml = type === 'text/html' || type === 'application/xhtml+xml';
  const sniffedHtml = type === '' && /^\s*<(!doctype html|html)/i.test(fetched.body.subarray(0, 512).toString('utf8'));
  if (looksHtml || sniffedHtml) {
    const html = decodeText(fetched.body, fetched.contentType);
    if (raw) return { content: html, kind: 'raw' };
    const page = htmlToMarkdown(html, fetched.url);
    return { ...(page.title ? { title: page.title } : {}), content: page.markdown, kind: 'markdown' };
  }
  if (textTypes.test(type) || (type === '' && !fetched.body.subarray(0, 8192).includes(0))) {
    return { content: decodeText(fetched.body, fetched.contentType), kind: 'text' };
  }
  if (type === 'application/pdf') {
    throw new ToolError(`${fetched.url.href} is a PDF; fetch_url reads HTML, text and JSON only.`);
  }
  throw new ToolError(
    `${fetched.url.href} is ${type || 'binary data'}, not text; fetch_url reads HTML, text and JSON.`,
  );
}
