import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { htmlToPlainText } from './plain-text.js';

/** A page turned into Markdown. */
export interface MarkdownPage {
  title: string;
  markdown: string;
}

/** Past this size the DOM, Readability and Turndown take too long on the server's one thread. */
const maxConvertibleLength = 2_000_000;
/** Past this nesting the converters' recursion takes minutes or overflows the stack. */
const maxConvertibleDepth = 1_000;
/** Elements that never hold others, and ones pages commonly leave unclosed: neither counts towards the depth. */
const flatElements = new Set(
  'area base br col embed hr img input link meta param source track wbr p li dt dd tr td th option'.split(' '),
);

/** How deeply the page's elements nest, by one linear pass over its tags (no DOM). */
export function nestingDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*>/g)) {
    const name = (match[2] as string).toLowerCase();
    if (flatElements.has(name) || match[0].endsWith('/>')) continue;
    depth = match[1] ? Math.max(0, depth - 1) : depth + 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/**
 * Turns an HTML page into readable Markdown: Readability keeps the article and drops navigation and ads, Turndown
 * writes Markdown; a page Readability cannot read falls back to its whole body.
 */
export function htmlToMarkdown(html: string, url: URL): MarkdownPage {
  if (html.length > maxConvertibleLength || nestingDepth(html) > maxConvertibleDepth) return htmlToPlainText(html);
  const { document } = parseHTML(html);
  const fallbackTitle = document.title?.trim() ?? '';
  // Readability changes the document it reads; the fallback needs the body as it was.
  const bodyHtml = document.body?.innerHTML ?? html;
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
      charThreshold: 200,
    }).parse();
  } catch {
    article = null;
  }
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript', 'iframe']);
  const content = article?.content ?? bodyHtml;
  const markdown = turndown
    .turndown(content)
    .replace(/\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)/gi, (match, target: string) => {
      // Readability cannot resolve links against linkedom's blank base URI, so relative links are resolved here.
      try {
        return `](${new URL(target, url).href}`;
      } catch {
        return match;
      }
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title: article?.title?.trim() || fallbackTitle, markdown };
}
