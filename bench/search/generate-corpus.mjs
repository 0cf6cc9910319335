// Generates a deterministic corpus of Markdown files for the search benchmark.
// Usage: node bench/search/generate-corpus.mjs [--files N] [--out DIR]
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/** Words planted at known rates, so every query has a known number of matching files. */
export const plantedTerms = [
  { term: 'zanzibarite', everyNth: 10_000 }, // rare: 10 files in 100,000
  { term: 'quartermaster', everyNth: 100 }, // 1% of files
  { term: 'lighthouse', everyNth: 10 }, // 10% of files
];

function random(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

const syllables = 'ka lo mi ne ru sa te vo xi zu ba de fi go hu ja ke li mo nu pe qui ra so tu ve wa yo'.split(' ');

function vocabulary(size, next) {
  const words = new Set();
  while (words.size < size) {
    const count = 1 + Math.floor(next() * 4);
    let word = '';
    for (let index = 0; index < count; index++) word += syllables[Math.floor(next() * syllables.length)];
    words.add(word);
  }
  return [...words];
}

/** Writes `files` files of about 4 KB each (1-8 KB) under `out`, 100 per folder. */
export async function generateCorpus({ files, out }) {
  const next = random(42);
  const words = vocabulary(20_000, next);
  const logSize = Math.log(words.length);
  // Zipf-like: a log-uniform index makes low ranks (common words) much more frequent.
  const word = () => words[Math.min(words.length - 1, Math.floor(Math.exp(next() * logSize)) - 1)];
  const sentence = (planted) => {
    const length = 6 + Math.floor(next() * 14);
    const parts = Array.from({ length }, word);
    if (planted) parts.splice(Math.floor(next() * length), 0, planted);
    const text = parts.join(' ');
    return `${text[0].toUpperCase()}${text.slice(1)}.`;
  };
  await rm(out, { recursive: true, force: true });
  let bytes = 0;
  for (let file = 0; file < files; file++) {
    const folder = join(
      out,
      `area-${String(Math.floor(file / 10_000)).padStart(2, '0')}`,
      `topic-${String(Math.floor(file / 100) % 100).padStart(2, '0')}`,
    );
    if (file % 100 === 0) await mkdir(folder, { recursive: true });
    const target = 1024 + Math.floor(next() * 7 * 1024);
    const planted = plantedTerms.filter(({ everyNth }) => file % everyNth === 7).map(({ term }) => term);
    const lines = [`# ${sentence().slice(0, -1)}`, ''];
    let size = lines[0].length;
    while (size < target) {
      const paragraph = Array.from({ length: 3 + Math.floor(next() * 4) }, () => sentence(planted.shift())).join(' ');
      lines.push(paragraph, '');
      size += paragraph.length + 2;
    }
    const content = lines.join('\n');
    bytes += content.length;
    await writeFile(join(folder, `note-${String(file).padStart(6, '0')}.md`), content);
  }
  return { files, bytes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { files: { type: 'string' }, out: { type: 'string' } } });
  const files = Number(values.files ?? 100_000);
  const out = values.out ?? join(import.meta.dirname, '..', '.data', 'search-corpus');
  const started = performance.now();
  const result = await generateCorpus({ files, out });
  console.log(
    `Generated ${result.files} files, ${(result.bytes / 1024 / 1024).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s at ${out}`,
  );
}
