import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { syncSnippets } from '../../../scripts/tools/sync-snippets.mjs';

const guide = readFileSync(fileURLToPath(new URL('../../../docs/authoring-guide.md', import.meta.url)), 'utf8');

describe('docs/authoring-guide.md', () => {
  it('shows the current code of this example in every snippet', () => {
    // On failure, run: node scripts/tools/sync-snippets.mjs docs/authoring-guide.md
    expect(syncSnippets(guide).stale).toEqual([]);
  });

  it('has no code block that does not come from a file', () => {
    const lines = guide.split('\n');
    const unmarked: number[] = [];
    let inside = false;
    lines.forEach((line, index) => {
      if (!line.startsWith('```')) return;
      if (!inside && !/^<!-- snippet: \S+ -->$/.test(lines[index - 1] ?? '')) unmarked.push(index + 1);
      inside = !inside;
    });
    expect(unmarked).toEqual([]);
    expect(guide.match(/<!-- snippet: /g)?.length).toBeGreaterThanOrEqual(15);
  });
});
