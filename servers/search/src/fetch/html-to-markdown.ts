import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** A page turned into Markdown. */
export interface MarkdownPage {
  title: string;
  markdown: string;
}

/**
 * Turns an HTML page into readable Markdown: Readability keeps the article and drops navigation and ads, Turndown
 * writes Markdown; a page Readability cannot read falls back to its whole body.
 */
export function htmlToMarkdown(html: string, url: URL): MarkdownPage {
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
