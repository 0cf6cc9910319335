import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { serverForEachTest } from './connected-server.js';

// Arguments a hostile model sends whose cost grows with their size: each is refused at once with one short sentence.
describe('hostile arguments', () => {
  const connected = serverForEachTest();

  it('refuses a path of tens of thousands of components at once, without echoing it back', async () => {
    // 120 KB of missing components: each was resolved on its own, looking for the deepest existing ancestor (about
    // 5 s here, and minutes for a few hundred KB, with no time limit or cancel), and the answer quoted it whole.
    const long = `${connected.fixture.root}/${'ab/'.repeat(40_000)}x`;
    for (const [tool, args] of [
      ['read_text_file', { path: long }],
      ['get_file_info', { path: long }],
      ['write_file', { path: long, content: 'x' }],
      ['create_directory', { path: long }],
      ['move_file', { source: 'hello.txt', destination: long }],
      ['grep', { pattern: 'x', path: long }],
    ] as const) {
      const started = performance.now();
      const result = await connected.client.callTool(tool, args);
      const elapsed = performance.now() - started;
      expect(result.isError, tool).toBe(true);
      expect(resultText(result), tool).toMatch(
        /^The path is 120,\d{3} bytes long \(120,\d{3} characters\); a path must be shorter than 4,096 bytes/,
      );
      expect(resultText(result).length, tool).toBeLessThan(1_000);
      expect(elapsed, `${tool} took ${Math.round(elapsed)} ms`).toBeLessThan(2_000);
    }
    // The limit counts bytes: a path of 2,100 two-byte characters is refused though it has fewer than 4,096
    // characters, and the sentence gave only its characters, which read as under the limit.
    const wide = await connected.client.callTool('read_text_file', {
      path: `${connected.fixture.root}/${'é'.repeat(2_100)}`,
    });
    expect(resultText(wide)).toMatch(
      /^The path is 4,2\d\d bytes long \(2,1\d\d characters\); a path must be shorter than 4,096 bytes/,
    );
    // Positive control: a long path that names a real file within the limit is read.
    const deep = join(connected.fixture.root, ...Array.from({ length: 30 }, () => 'd'.repeat(100)));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'file.txt'), 'deep content\n');
    expect(resultText(await connected.client.callTool('read_text_file', { path: join(deep, 'file.txt') }))).toBe(
      'deep content',
    );
  });

  it('refuses a list of a hundred thousand globs before compiling them, in every tool that takes globs', async () => {
    // Each pattern cost about 3 us to compile and 3 us per entry to match, on the main thread: 100,000 of them held
    // the event loop for a quarter of a second per entry walked.
    const folder = join(connected.fixture.root, 'many');
    mkdirSync(folder);
    for (let index = 0; index < 30; index++) writeFileSync(join(folder, `file-${index}.txt`), 'a\n');
    const patterns = Array.from({ length: 100_000 }, (_, index) => `*x${index}*y`);
    for (const [tool, args] of [
      ['directory_tree', { path: 'many', excludePatterns: patterns }],
      ['search_files', { path: 'many', pattern: '*.txt', excludePatterns: patterns }],
      ['grep', { path: 'many', pattern: 'a', include: patterns }],
      ['grep', { path: 'many', pattern: 'a', exclude: patterns }],
    ] as const) {
      const started = performance.now();
      const result = await connected.client.callTool(tool, args);
      const elapsed = performance.now() - started;
      expect(result.isError, tool).toBe(true);
      expect(resultText(result), tool).toMatch(/100,000 globs; pass at most 100/);
      expect(elapsed, `${tool} took ${Math.round(elapsed)} ms`).toBeLessThan(2_000);
    }
    // Positive control: a hundred globs are taken.
    const hundred = patterns.slice(0, 100);
    const tree = await connected.client.callTool('directory_tree', { path: 'many', excludePatterns: hundred });
    expect(tree.isError, resultText(tree)).not.toBe(true);
    expect(resultText(tree)).toContain('file-29.txt');
  });
});
