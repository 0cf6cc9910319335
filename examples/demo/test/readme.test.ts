import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { syncSnippets } from '../../../scripts/tools/sync-snippets.mjs';

const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');

it("keeps the README's code equal to the built files it comes from (shell commands aside)", () => {
  // On failure, run: node scripts/tools/sync-snippets.mjs README.md
  expect(syncSnippets(readme).stale).toEqual([]);
  const lines = readme.split('\n');
  const unmarked: string[] = [];
  let inside = false;
  lines.forEach((line, index) => {
    if (!line.startsWith('```')) return;
    const marked = /^<!-- snippet: \S+ -->$/.test(lines[index - 1] ?? '');
    if (!inside && !marked && line !== '```sh') unmarked.push(`line ${index + 1}: ${line}`);
    inside = !inside;
  });
  expect(unmarked).toEqual([]);
});
