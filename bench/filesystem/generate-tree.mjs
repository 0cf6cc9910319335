#!/usr/bin/env node
// Generates the benchmark tree: 100,000 small text files in 1,110 directories (10 x 10 x 10 leaves of 100 files,
// plus the inner levels), under bench/.data/filesystem-tree (git-ignored). Deterministic, so runs are comparable.
// A rare word ("zanzibar") sits in 1 file in 1,000 so grep has a few hundred hits, not 100,000.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const files = 100_000;
export const treeRoot = fileURLToPath(new URL('../.data/filesystem-tree', import.meta.url));
const marker = join(treeRoot, '.complete');

const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo'];

/** Creates the tree unless a complete one is already there; returns its path. */
export function generateTree() {
  if (existsSync(marker) && readFileSync(marker, 'utf8') === String(files)) return treeRoot;
  rmSync(treeRoot, { recursive: true, force: true });
  let count = 0;
  for (let a = 0; a < 10; a++) {
    for (let b = 0; b < 10; b++) {
      for (let c = 0; c < 10; c++) {
        const directory = join(treeRoot, `module-${a}`, `package-${b}`, `folder-${c}`);
        mkdirSync(directory, { recursive: true });
        for (let d = 0; d < files / 1000; d++) {
          const lines = [];
          for (let line = 0; line < 8; line++) {
            lines.push(
              `${words[(count + line) % words.length]} line ${line} of file ${count} ${'x'.repeat(count % 40)}`,
            );
          }
          if (count % 1000 === 7) lines.splice(4, 0, 'the zanzibar needle is here');
          writeFileSync(join(directory, `file-${count}.txt`), `${lines.join('\n')}\n`);
          count++;
        }
      }
    }
  }
  writeFileSync(marker, String(files));
  return treeRoot;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  process.stdout.write(`${generateTree()} ready in ${Math.round(performance.now() - started)} ms\n`);
}
