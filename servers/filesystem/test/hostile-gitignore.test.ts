import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { heavyTestTimeout, serverForEachTest } from './connected-server.js';
import { longestHoldWhile } from './responsiveness.js';

// Each .gitignore is capped (1,000 rules, 16 KB of patterns), but the rules of every .gitignore from the walk root
// down are in force at once: 200 nested folders of capped files put 200,000 rules on every entry at the bottom.
describe('nested hostile .gitignore files', () => {
  const connected = serverForEachTest();

  it('caps the rules in force along a deep chain of .gitignore files, with a note, without holding the loop', {
    timeout: heavyTestTimeout,
  }, async () => {
    let directory = join(connected.fixture.root, 'chain');
    for (let level = 0; level < 200; level++) {
      directory = join(directory, 'd');
      mkdirSync(directory, { recursive: true });
      const rules = Array.from({ length: 1_000 }, (_, index) => `*x${level}_${index}*y`);
      writeFileSync(join(directory, '.gitignore'), `${rules.join('\n')}\n`);
    }
    for (let index = 0; index < 10; index++) writeFileSync(join(directory, `${'f'.repeat(200)}${index}`), 'a\n');
    const search = connected.client.callTool('search_files', { path: 'chain', pattern: 'f*' });
    const held = await longestHoldWhile(search);
    const text = resultText(await search);
    expect(text.split('\n').filter((line) => line.startsWith('/'))).toHaveLength(10);
    // 52 ms quiet, 79 ms at a load of 5 on two cores; 1,701 ms before the cap.
    expect(held, 'longest ms the event loop was held').toBeLessThan(600);
    expect(text).toMatch(/\[note: .*rules were not applied.*in force at once/);
  });

  it('names at most three capped .gitignore files in its note, and counts the others', {
    timeout: heavyTestTimeout,
  }, async () => {
    // One note per capped file, each with the whole sentence: 300 folders of capped files made a 79,000-character
    // note that went past the read budget on its own.
    for (let index = 0; index < 300; index++) {
      const folder = join(connected.fixture.root, 'many', `folder-${index}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(folder, '.gitignore'),
        `${Array.from({ length: 1_001 }, (_, rule) => `r${rule}`).join('\n')}\n`,
      );
    }
    const text = resultText(
      await connected.client.callTool('search_files', { path: 'many', pattern: 'nothing-matches' }),
    );
    expect(text).toMatch(/^No matches found\n\[note: 1 \.gitignore rules were not applied/);
    expect(text).toContain('and 297 more .gitignore files had rules left out');
    expect(text.length).toBeLessThan(2_000);
  });
});
