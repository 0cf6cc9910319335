import { runOffThread, ToolError } from '@mcpkit/server-kit';
import type { FetchedBody } from './guarded-fetch.js';
import type { MarkdownPage } from './html-to-markdown.js';

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

/** How a page is converted: the request's signal and the time limit of the conversion. */
export interface ConversionOptions {
  signal?: AbortSignal;
  /** Time limit of the HTML to Markdown conversion (off the main thread); past it the page comes as plain text. */
  timeoutMs: number;
}

const conversionTask = new URL('./html-to-markdown-task.js', import.meta.url);
/** The fallback's task module loads no DOM: its fresh worker starts at once, whatever the conversion loaded. */
const plainTextTask = new URL('./plain-text-task.js', import.meta.url);

/**
 * HTML as Markdown, converted on a worker thread: a page whose DOM makes the converters slow holds a worker, not the
 * server, and is stopped at the time limit or on cancel. A page that fails or runs out of time comes as plain text.
 */
async function convertHtml(html: string, url: URL, options: ConversionOptions): Promise<MarkdownPage> {
  const limits = { timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) };
  try {
    return await runOffThread<MarkdownPage>(
      { module: conversionTask, name: 'convertToMarkdown' },
      { html, url: url.href },
      {
        ...limits,
        label: 'converting the page to Markdown',
      },
    );
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const why = ToolError.isInstance(error)
      ? 'converting the page to Markdown took more time or memory than allowed'
      : 'the page could not be converted to Markdown';
    return runOffThread<MarkdownPage>(
      { module: plainTextTask, name: 'convertToPlainText' },
      { html, why },
      {
        ...limits,
        label: 'extracting the page text',
      },
    );
  }
}

/**
 * Turns a fetched body into text by its content type: HTML becomes Markdown (unless `raw`), text and JSON pass
 * through, and anything binary is refused with a sentence saying what it was.
 */
export async function toPageContent(
  fetched: FetchedBody,
  raw: boolean,
  options: ConversionOptions,
): Promise<PageContent> {
  const type = fetched.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const looksHtml = type === 'text/html' || type === 'application/xhtml+xml';
  const sniffedHtml = type === '' && /^\s*<(!doctype html|html)/i.test(fetched.body.subarray(0, 512).toString('utf8'));
  if (looksHtml || sniffedHtml) {
    const html = decodeText(fetched.body, fetched.contentType);
    if (raw) return { content: html, kind: 'raw' };
    const page = await convertHtml(html, fetched.url, options);
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
