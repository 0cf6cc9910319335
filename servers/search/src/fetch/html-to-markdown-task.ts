import { htmlToMarkdown, htmlToPlainText, type MarkdownPage } from './html-to-markdown.js';

// Tasks run by the kit's worker pool (runOffThread): the DOM, Readability and Turndown load once per worker.

/** Off-thread task: an HTML page as Markdown; the URL, for resolving relative links, travels as its href. */
export function convertToMarkdown(input: { html: string; url: string }): MarkdownPage {
  return htmlToMarkdown(input.html, new URL(input.url));
}

/** Off-thread task: the page's plain text, when its conversion failed or ran out of time. */
export function convertToPlainText(input: { html: string; why: string }): MarkdownPage {
  return htmlToPlainText(input.html, input.why);
}
