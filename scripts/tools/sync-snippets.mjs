#!/usr/bin/env node
// Keeps the code blocks of a Markdown document equal to the files they come from, so that every snippet in the docs
// is code that CI builds and tests. A block is marked by the comment line just above its fence:
//   <!-- snippet: examples/hello-server/src/tools/greet.ts#greet -->
// `#greet` names a region of the file, between the lines `// #region greet` and `// #endregion greet`; without it the
// block is the whole file. Paths are relative to the repository root.
//   node scripts/tools/sync-snippets.mjs docs/authoring-guide.md           rewrites the blocks
//   node scripts/tools/sync-snippets.mjs docs/authoring-guide.md --check   exits 1 when a block is out of date
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const marker = /^<!-- snippet: ([^#\s]+)(?:#([\w-]+))? -->$/;

/** The text of a snippet source: a named region of a file (markers left out), or the whole file. */
export function snippetSource(path, region) {
  const text = readFileSync(join(root, path), 'utf8');
  if (!region) return text.replace(/\n$/, '');
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${region}`);
  const end = lines.findIndex((line, index) => index > start && line.trim() === `// #endregion ${region}`);
  if (start === -1 || end === -1) throw new Error(`${path} has no region "${region}"`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length));
  return body.map((line) => line.slice(indent)).join('\n');
}

/** The document with every marked block replaced by its source, and the markers whose block changed. */
export function syncSnippets(markdown) {
  const lines = markdown.split('\n');
  const stale = [];
  const output = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    output.push(line);
    const match = marker.exec(line.trim());
    if (!match) continue;
    const fence = lines[index + 1] ?? '';
    if (!fence.startsWith('```')) throw new Error(`line ${index + 1}: a snippet marker must be followed by a fence`);
    const close = lines.findIndex((candidate, at) => at > index + 1 && candidate.startsWith('```'));
    if (close === -1) throw new Error(`line ${index + 2}: the code block is not closed`);
    const current = lines.slice(index + 2, close).join('\n');
    const wanted = snippetSource(match[1], match[2]);
    if (current !== wanted) stale.push(`${match[1]}${match[2] ? `#${match[2]}` : ''}`);
    output.push(fence, wanted, lines[close]);
    index = close;
  }
  return { markdown: output.join('\n'), stale };
}

function main([documentPath, flag]) {
  if (!documentPath || (flag !== undefined && flag !== '--check')) {
    process.stderr.write('usage: sync-snippets.mjs DOCUMENT.md [--check]\n');
    process.exit(2);
  }
  const path = resolve(documentPath);
  const { markdown, stale } = syncSnippets(readFileSync(path, 'utf8'));
  if (flag === '--check') {
    if (stale.length > 0) {
      process.stderr.write(
        `${documentPath}: out of date snippets: ${stale.join(', ')}\nRun: node scripts/tools/sync-snippets.mjs ${documentPath}\n`,
      );
      process.exit(1);
    }
    return;
  }
  writeFileSync(path, markdown);
  process.stderr.write(`${documentPath}: ${stale.length} snippet(s) updated\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
