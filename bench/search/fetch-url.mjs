// fetch_url on ordinary pages through MCP: the real bin over stdio against a loopback site, median and p95.
// Usage: node bench/search/fetch-url.mjs [--iterations N] [--bin PATH]   (build first: npx turbo run build)
// --bin runs another build of the server (a copy of an older dist/ and bin/) for a before/after comparison.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnTestClient } from '@mcpkit/server-kit/testing';

const { values } = parseArgs({ options: { iterations: { type: 'string' }, bin: { type: 'string' } } });
const iterations = Number(values.iterations ?? 60);
const bin = values.bin ?? join(import.meta.dirname, '..', '..', 'servers', 'search', 'bin', 'mcpkit-search.js');

const paragraph = (index) =>
  `<p>Paragraph ${index}: the release improves <strong>search speed</strong>, fixes bug ${index} and ` +
  `documents <a href="/bugs/${index}">the change</a> with <em>examples</em> and <code>code</code>.</p>`;
/** Pages like the ones a model fetches: a short article, a long one with navigation, a list-heavy reference page. */
const pages = {
  '/short': `<!doctype html><html><head><title>Short</title></head><body><nav><a href="/">Home</a></nav>
<article><h1>Short note</h1>${Array.from({ length: 8 }, (_, index) => paragraph(index)).join('\n')}</article></body></html>`,
  '/article': `<!doctype html><html><head><title>Release notes</title></head><body>
<header><nav>${Array.from({ length: 30 }, (_, index) => `<a href="/section/${index}">Section ${index}</a>`).join(' | ')}</nav></header>
<main><article><h1>Release notes</h1>${Array.from({ length: 200 }, (_, index) => (index % 20 === 0 ? `<h2>Part ${index / 20}</h2>` : '') + paragraph(index)).join('\n')}</article></main>
<aside>${Array.from({ length: 20 }, (_, index) => `<div class="ad">Advert ${index}</div>`).join('')}</aside>
<footer>Copyright</footer><script>window.tracking = true;</script></body></html>`,
  '/reference': `<!doctype html><html><head><title>Reference</title></head><body><div id="content"><h1>API reference</h1>
${Array.from({ length: 60 }, (_, index) => `<h3>method${index}()</h3><ul>${Array.from({ length: 6 }, (_, item) => `<li><code>option${item}</code>: what option ${item} does</li>`).join('')}</ul><pre><code>call(${index});</code></pre>`).join('\n')}
<table>${Array.from({ length: 100 }, (_, row) => `<tr><td>row ${row}</td><td>value ${row * 3}</td></tr>`).join('')}</table></div></body></html>`,
};

const site = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (path === '/robots.txt') {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('User-agent: *\nDisallow: /private/\n');
    return;
  }
  const page = pages[path];
  response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
  response.end(page ?? 'not found');
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${site.address().port}`;

const percentile = (sorted, fraction) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
const summarize = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
};

const folder = mkdtempSync(join(tmpdir(), 'fetch-bench-'));
const client = await spawnTestClient({
  command: process.execPath,
  args: [bin, '--no-watch', '--allow-private', '--index-file', ':memory:', '--log-level', 'error', folder],
});
const rows = [];
try {
  for (const [path, html] of Object.entries(pages)) {
    const call = () => client.callTool('fetch_url', { url: origin + path, max_length: 100_000 });
    for (let warm = 0; warm < 20; warm++) await call();
    const times = [];
    for (let round = 0; round < iterations; round++) {
      const started = performance.now();
      const result = await call();
      times.push(performance.now() - started);
      if (result.isError) throw new Error(`fetch_url ${path} failed: ${JSON.stringify(result.content)}`);
    }
    const concurrent = [];
    for (let round = 0; round < Math.ceil(iterations / 8); round++) {
      const started = performance.now();
      await Promise.all(Array.from({ length: 8 }, call));
      concurrent.push(performance.now() - started);
    }
    rows.push({ path, kb: (html.length / 1024).toFixed(0), ...summarize(times), batch: summarize(concurrent).median });
  }
} finally {
  await client.close();
  await new Promise((resolve) => site.close(resolve));
  rmSync(folder, { recursive: true, force: true });
}

console.log(
  `${bin}\nfetch_url through MCP, ${iterations} sequential calls per page after 20 warm-ups, and batches of 8 at once`,
);
console.log(
  `Load average at the end: ${loadavg()
    .map((load) => load.toFixed(1))
    .join(', ')}\n`,
);
console.log('| page | HTML KB | median ms | p95 ms | 8 concurrent, median ms per batch |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  console.log(
    `| ${row.path} | ${row.kb} | ${row.median.toFixed(2)} | ${row.p95.toFixed(2)} | ${row.batch.toFixed(1)} |`,
  );
}
