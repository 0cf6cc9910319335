import { htmlToMarkdown, type MarkdownPage } from './html-to-markdown.js';

// A task run by the kit's worker pool (runOffThread): the DOM, Readability and Turndown load once per worker.

/** Off-thread task: an HTML page as Markdown; the URL, for resolving relative links, travels as its href. */
export function convertToMarkdown(input: { html: string; url: string }): MarkdownPage {
  return htmlToMarkdown(input.html, new URL(input.url));
}
