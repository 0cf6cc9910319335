import { describe, expect, it } from 'vitest';
import { htmlToMarkdown, nestingDepth } from './html-to-markdown.js';

const url = new URL('https://example.com/page');

describe('htmlToMarkdown', () => {
  it('converts an ordinary page to Markdown', () => {
    const page = htmlToMarkdown(
      '<html><head><title>T</title></head><body><h1>Hello</h1><p>A <b>bold</b> word.</p></body></html>',
      url,
    );
    expect(page.title).toBe('T');
    expect(page.markdown).toContain('# Hello');
    expect(page.markdown).toContain('**bold**');
  });

  it('measures nesting in one pass, ignoring void and commonly unclosed elements', () => {
    expect(nestingDepth('<div><div><br><img src=x><p>a<p>b</div></div>')).toBe(2);
    expect(nestingDepth('<div><span/></div>')).toBe(1);
  });

  it('falls back to plain text, quickly, for a page nested deeper than the converters can take', () => {
    const depth = 200_000;
    const html = `<html><head><title>Deep</title><script>var x = "<div>";</script></head><body>${'<div>'.repeat(depth)}deep text &amp; more &#128512; &#x110000;${'</div>'.repeat(depth)}</body></html>`;
    // CPU time, not wall time, which on a busy machine counts the other processes' turns too.
    const started = process.cpuUsage();
    const page = htmlToMarkdown(html, url);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000, 'CPU ms of the conversion').toBeLessThan(2_000);
    expect(page.title).toBe('Deep');
    expect(page.markdown).toMatch(/^\(Plain text: /);
    expect(page.markdown).toContain('deep text & more 😀');
    expect(page.markdown).not.toContain('var x');
  });
});
