import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resultText, type TestClient } from '@mcpkit/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { serverForEachTest, withServer } from './connected-server.js';

/** The read budget of these tests: the server's own safety net cuts a result at this plus 10,000 characters. */
const readBudget = 5_000;

/** Follows a listing's cursors to its end; every page must stay within the budget and carry its own cursor. */
async function allPages(
  client: TestClient,
  tool: string,
  args: Record<string, unknown>,
  budget = readBudget,
): Promise<string[]> {
  const pages: string[] = [];
  let cursor: string | undefined;
  do {
    const result = await client.callTool(tool, { ...args, ...(cursor ? { cursor } : {}) });
    const text = resultText(result);
    expect(result.isError, text).not.toBe(true);
    // The server's safety net cut the page (and its cursor with it): the rest of the listing cannot be reached.
    expect(text, `page ${pages.length + 1} of ${tool}`).not.toMatch(/\[truncated: showed [\d,]+ of [\d,]+ characters/);
    expect(text.length, `page ${pages.length + 1} of ${tool}`).toBeLessThanOrEqual(budget + 1_000);
    pages.push(text);
    cursor = /cursor="([^"]+)"/.exec(text)?.[1];
    expect(pages.length).toBeLessThan(100);
  } while (cursor);
  return pages;
}

// A folder of long names: the pages were counted in entries only, so a page of long names went over the budget and
// the kit's safety net cut it, note and cursor included; every entry after the cut was out of reach.
describe('pages within the character budget', () => {
  const names = Array.from({ length: 120 }, (_, index) => `${'n'.repeat(200)}-${String(index).padStart(3, '0')}`);
  const connected = serverForEachTest({
    limits: { readBudget },
    prepare: ({ root }) => {
      mkdirSync(join(root, 'long'));
      for (const name of names) writeFileSync(join(root, 'long', name), 'a\n');
    },
  });

  it('list_directory and list_directory_with_sizes page long names by characters, reaching every entry', async () => {
    for (const tool of ['list_directory', 'list_directory_with_sizes']) {
      const pages = await allPages(connected.client, tool, { path: 'long' });
      expect(pages.length, tool).toBeGreaterThan(1);
      const shown = pages.flatMap((page) => page.split('\n').filter((line) => line.startsWith('[FILE]')));
      expect(
        shown.map((line) => line.split(' ')[1]),
        tool,
      ).toEqual(names);
    }
  });

  it("a directory's file:// resource lists what fits the read budget and says how many more there are", async () => {
    // It listed a whole page of entries (1,000 of them, up to 262 characters each) whatever the budget.
    const read = await connected.client.client.readResource({
      uri: pathToFileURL(join(connected.fixture.root, 'long')).href,
    });
    const text = (read.contents[0] as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(readBudget);
    const shown = text.split('\n').filter((line) => line.startsWith('[FILE]'));
    expect(shown.length).toBeGreaterThan(10);
    expect(text).toContain(`[${names.length - shown.length} more entries: use list_directory]`);
  });

  it('read_multiple_files shares the budget with the paths and notes it prints, so every file keeps its note', async () => {
    // Each file got at least 1,000 characters whatever the number of files: 100 files of the default budget and
    // paths of 20 characters already passed the safety net, which cut the last files, notes and all.
    const paths = Array.from({ length: 20 }, (_, index) => `texts/file-number-${index}.txt`);
    mkdirSync(join(connected.fixture.root, 'texts'));
    for (const file of paths)
      writeFileSync(join(connected.fixture.root, file), `${'words and more words\n'.repeat(100)}`);
    const result = await connected.client.callTool('read_multiple_files', { paths });
    const text = resultText(result);
    expect(text).not.toMatch(/\[truncated: showed [\d,]+ of [\d,]+ characters/);
    expect(text.length).toBeLessThanOrEqual(readBudget + 1_000);
    for (const file of paths) expect(text).toContain(`${file}:\nwords and more words\n`);
    expect(text.match(/read the rest with read_text_file offset=\d+/g)).toHaveLength(20);
  });

  it('read_multiple_files lists the files whose paths do not fit the budget as not shown, and stays within it', async () => {
    // Each file kept at least 100 characters of content after its path: 30 paths of about 1,000 characters passed
    // the budget on their own, and the answer passed the safety net, which cut the last files and their notes.
    const folder = join('texts', ...Array.from({ length: 4 }, (_, index) => `${'d'.repeat(240)}${index}`));
    mkdirSync(join(connected.fixture.root, folder), { recursive: true });
    const paths = Array.from({ length: 30 }, (_, index) => join(folder, `file-${index}.txt`));
    for (const file of paths) writeFileSync(join(connected.fixture.root, file), 'words and more words\n'.repeat(100));
    const text = resultText(await connected.client.callTool('read_multiple_files', { paths }));
    expect(text).not.toMatch(/\[truncated: showed [\d,]+ of [\d,]+ characters/);
    expect(text.length).toBeLessThanOrEqual(readBudget);
    const shown = paths.filter((file) => text.includes(`${file}:\nwords and more words\n`));
    expect(shown).toEqual(paths.slice(0, shown.length));
    expect(shown.length).toBeGreaterThan(1);
    expect(text.match(/read the rest with read_text_file offset=\d+/g)).toHaveLength(shown.length);
    expect(text).toMatch(
      new RegExp(
        `\\[not shown: files ${shown.length + 1}-30 of the 30 asked for; .*Ask for fewer files at a time\\.\\]$`,
      ),
    );
    // A file that fails quotes its path twice (before its error and in it): the answer still ends within the budget.
    const missing = paths.map((file) => `${file}.missing`);
    const errors = resultText(await connected.client.callTool('read_multiple_files', { paths: missing }));
    expect(errors.length).toBeLessThanOrEqual(readBudget);
    expect(errors).toMatch(/^texts\/d+0\/.*: Error - /);
    expect(errors).toMatch(/\[not shown: files \d+-30 of the 30 asked for; /);
  });

  it('read_text_file tail shows the end of a long line that is not the last, and says it is only its end', async () => {
    // The backward read stops after budget x 4 bytes, inside the long line: it was dropped as partial, and tail 2
    // answered one line without a note.
    writeFileSync(join(connected.fixture.root, 'long-line.txt'), `head\n${'a'.repeat(50_000)}\nbbbbbbbbbb\n`);
    const text = resultText(await connected.client.callTool('read_text_file', { path: 'long-line.txt', tail: 2 }));
    expect(text).toMatch(/^a{4989}\nbbbbbbbbbb\n\[truncated: the last 2 lines exceed the 5,000-character budget; /);
    expect(text).toContain('the first of them only its end (cut at the budget)');
  });

  it('grep ends a page before a match whose context lines would pass the budget', async () => {
    // The budget was checked before each match, and a match brings up to 41 lines of 400 characters: the page after
    // it passed the safety net, which cut the last match, the summary and the cursor.
    const groups = Array.from({ length: 4 }, (_, index) =>
      [
        ...Array(20).fill('x'.repeat(500)),
        `MATCH ${index} ${'y'.repeat(500)}`,
        ...Array(20).fill('z'.repeat(500)),
      ].join('\n'),
    );
    writeFileSync(join(connected.fixture.root, 'groups.txt'), `${groups.join('\n')}\n`);
    const budget = 20_000;
    await withServer(connected.fixture.root, { readBudget: budget }, async (wider) => {
      const pages = await allPages(wider, 'grep', { pattern: 'MATCH', path: 'groups.txt', contextLines: 20 }, budget);
      const matches = pages.flatMap((page) => page.match(/^\d+: MATCH \d/gm) ?? []);
      expect(matches).toEqual(['21: MATCH 0', '62: MATCH 1', '103: MATCH 2', '144: MATCH 3']);
    });
  });

  it('search_files pages long paths by characters, reaching every match', async () => {
    const pages = await allPages(connected.client, 'search_files', { path: 'long', pattern: 'n*' });
    expect(pages.length).toBeGreaterThan(1);
    const shown = pages.flatMap((page) => page.split('\n').filter((line) => line.startsWith('/')));
    expect(shown).toEqual(names.map((name) => join(connected.fixture.root, 'long', name)));
  });

  it('directory_tree counts names as JSON writes them: control characters take six each', async () => {
    const escaped = join(connected.fixture.root, 'escaped');
    mkdirSync(escaped);
    const controlNames = Array.from({ length: 40 }, (_, index) => `${'\u0001'.repeat(150)}${index}`);
    for (const name of controlNames) writeFileSync(join(escaped, name), 'a\n');
    const pages = await allPages(connected.client, 'directory_tree', { path: 'escaped' });
    const shown = pages.flatMap((page) => JSON.parse(page.split('\n')[0] ?? '') as Array<{ name: string }>);
    expect(shown.map((node) => node.name)).toEqual([...controlNames].sort());
  });

  it('directory_tree counts the ancestors a continued page repeats, and leaves room for its cursor', async () => {
    // A page that starts deep below long directory names repeats each of them so that it parses on its own, and its
    // cursor carries the relative path it stopped at (here about 3.5 KB, 4.7 KB once encoded).
    const chain = Array.from({ length: 14 }, (_, index) => `${'d'.repeat(240)}${index}`);
    const deepest = join(connected.fixture.root, 'deep', ...chain);
    mkdirSync(deepest, { recursive: true });
    for (let index = 0; index < 200; index++) writeFileSync(join(deepest, `${'f'.repeat(100)}${index}`), 'a\n');
    const budget = 12_000;
    await withServer(connected.fixture.root, { readBudget: budget }, async (wider) => {
      const pages = await allPages(wider, 'directory_tree', { path: 'deep' }, budget);
      expect(pages.length).toBeGreaterThan(1);
      const files = pages.flatMap((page) => page.match(/"f{100}\d+"/g) ?? []);
      expect(files).toHaveLength(200);
    });
  });
});
