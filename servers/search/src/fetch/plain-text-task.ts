import type { MarkdownPage } from './html-to-markdown.js';
import { htmlToPlainText } from './plain-text.js';

// A task run by the kit's worker pool (runOffThread), in a module of its own so that its worker loads no DOM.

/** Off-thread task: the page's plain text, when its conversion failed or ran out of time. */
export function convertToPlainText(input: { html: string; why: string }): MarkdownPage {
  return htmlToPlainText(input.html, input.why);
}
