import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AllowedDirectories } from '../allowed-directories.js';
import { IndexDatabase } from './index-database.js';
import { askAgain } from './index-writer.js';
import { Indexer } from './indexer.js';
import { LocalIndex } from './local-index.js';
import { compareCodePoints } from './path-order.js';
import { sqliteWriter } from './sqlite-writer.js';
import { StoredFileCursor } from './stored-file-cursor.js';

/** Names whose order differs between JavaScript (UTF-16 code units) and SQLite (UTF-8 bytes). */
const unusualNames = [
  '\u{FF21}.md',
  '\u{1F600}.md',
  '\u{FF21}/x.md',
  '\u{1F600}/y.md',
  'a\u{1F600}/1.md',
  'a\u{FF21}.md',
];

describe('StoredFileCursor', () => {
  const directory = `${sep}docs`;
  let database: IndexDatabase;
  const store = (relative: string, path = directory + sep + relative) =>
    database.putDocument({
      path,
      relativePath: relative,
      size: 1,
      mtimeMs: 0,
      title: '',
      lineCount: 0,
      text: false,
      digest: new Uint8Array(),
      passages: [],
    });
  const idOf = (relative: string) => database.documentIdAt(directory + sep + relative);
  /** `meet`, asked again as the indexer does while the answer needs more pages. */
  const meet = (cursor: StoredFileCursor, relative: string) => {
    let met = cursor.meet(directory + sep + relative);
    while (met === askAgain) met = cursor.meet(directory + sep + relative);
    return met;
  };

  beforeEach(() => {
    database = new IndexDatabase(':memory:');
  });
  afterEach(() => database.close());

  it('meets stored files in path order a page at a time and reports those passed over as gone', async () => {
    const stored = ['a.md', 'b.md', 'c/1.md', 'c/2.md', 'd.md', 'e.md', 'f/g/h.md', '\u{1F600}/z.md', ...unusualNames];
    for (const relative of stored) store(relative);
    store('outside.md', `${directory}-2${sep}outside.md`); // a sibling folder named alike: not under the directory
    const cursor = new StoredFileCursor(database, directory, 2);
    // In the walk's order (code points, checked against SQLite in file-walker.test.ts); b.md, c/2.md, e.md, the emoji file
    // and the last file are gone from disk, new.md is new. The walk stops before the last file.
    const walked = [
      'a.md',
      'c/1.md',
      'd.md',
      'f/g/h.md',
      'new.md',
      ...unusualNames.filter((name) => name !== '\u{1F600}.md'),
    ];
    walked.sort(compareCodePoints);
    for (const relative of walked) {
      const met = meet(cursor, relative);
      expect(met?.id, relative).toBe(relative === 'new.md' ? undefined : idOf(relative));
    }
    expect(cursor.takeGone(5)).toEqual([]); // fewer than asked for: kept
    expect(cursor.takeGone()).toEqual(['b.md', 'c/2.md', 'e.md', '\u{1F600}.md'].map(idOf));
    const rest: number[][] = [];
    for await (const ids of cursor.rest()) rest.push(ids);
    expect(rest).toEqual([[idOf('\u{1F600}/z.md')]]);
  });

  it('never reports as gone a file the run stored after meeting it, nor stops short of rows after a full page', async () => {
    for (const relative of ['a.md', 'b.md', 'c.md', 'd.md']) store(relative);
    const cursor = new StoredFileCursor(database, directory, 2);
    expect(meet(cursor, 'a.md')).toBeDefined();
    expect(meet(cursor, 'a2.md')).toBeUndefined();
    store('a2.md'); // the run stores the new file it met, behind the page held
    expect(meet(cursor, 'b.md')).toBeDefined();
    expect(meet(cursor, 'd.md')).toBeDefined(); // c.md passed over: gone
    expect(meet(cursor, 'x.md')).toBeUndefined(); // the last page was short: the end is reached
    store('x.md');
    expect(meet(cursor, 'y.md')).toBeUndefined();
    const rest: number[] = [];
    for await (const ids of cursor.rest()) rest.push(...ids);
    expect(rest).toEqual([idOf('c.md')]);
  });

  it('reads one page at most per call, so a deleted subtree of any size does not hold the event loop', () => {
    for (let file = 0; file < 25; file++) store(`deleted/${String(file).padStart(2, '0')}.md`);
    store('kept.md');
    const cursor = new StoredFileCursor(database, directory, 4);
    const pageReads = vi.spyOn(database, 'storedFilesBetween');
    const answers: unknown[] = [];
    for (let met = cursor.meet(`${directory}${sep}kept.md`); ; met = cursor.meet(`${directory}${sep}kept.md`)) {
      expect(pageReads).toHaveBeenCalledTimes(1);
      pageReads.mockClear();
      answers.push(met);
      if (met !== askAgain) break;
      // The caller takes the gone ids between calls: they never pile up past a page or two.
      expect(cursor.takeGone().length).toBeLessThanOrEqual(4);
    }
    expect(answers.at(-1)).toMatchObject({ id: idOf('kept.md') });
    expect(answers.length).toBe(7); // 26 rows in pages of 4
  });

  it('refuses a page of fewer than one row, which would answer askAgain for good', () => {
    store('kept.md');
    for (const pageRows of [0, -1, 0.5, Number.NaN]) {
      expect(() => new StoredFileCursor(database, directory, pageRows)).toThrow(
        `A stored-file cursor reads at least one row a page (asked for ${pageRows}).`,
      );
    }
    // One row a page is the least that gets anywhere.
    expect(meet(new StoredFileCursor(database, directory, 1), 'kept.md')).toMatchObject({ id: idOf('kept.md') });
  });

  it('reports a file stored where the directory now is as gone', async () => {
    store('docs', directory);
    const cursor = new StoredFileCursor(database, directory);
    expect(cursor.takeGone()).toEqual([database.documentIdAt(directory)]);
  });
});

describe('re-indexing against the stored files', () => {
  let base: string;
  let index: LocalIndex | undefined;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'mcpkit-search-cursor-'));
    mkdirSync(join(base, 'docs'));
  });
  afterEach(async () => {
    await index?.close();
    rmSync(base, { recursive: true, force: true });
  });

  function write(path: string, text: string) {
    mkdirSync(join(base, 'docs', path, '..'), { recursive: true });
    writeFileSync(join(base, 'docs', path), text);
  }

  for (const kind of ['file', 'memory'] as const) {
    it(`keeps the index equal to the disk through changed, unchanged, deleted and renamed files (${kind})`, async () => {
      for (let folder = 0; folder < 3; folder++) {
        for (let file = 0; file < 8; file++) write(`f${folder}/n${file}.md`, `note ${folder} ${file}\n`);
      }
      for (const name of unusualNames) write(name, `unusual ${name}\n`);
      const indexFile = kind === 'file' ? join(base, 'index', 'index.sqlite') : ':memory:';
      const opened = new LocalIndex({ directories: [join(base, 'docs')], indexFile, batchFiles: 5 });
      index = opened;
      const root = opened.directories.roots[0] as string;
      const stored = () =>
        (opened.database.connection.prepare('SELECT path FROM documents').pluck().all() as string[])
          .map((path) => path.slice(root.length + 1))
          .sort();
      const [built] = await opened.refreshAll();
      expect(built).toMatchObject({ added: 30, removed: 0 });
      // Unchanged, the non-BMP names included (met in the order SQLite sorts them, or they would be dropped here).
      const [unchanged] = await opened.refreshAll();
      expect(unchanged).toMatchObject({ scanned: 30, added: 0, updated: 0, removed: 0, unchanged: 30 });

      const later = new Date(Date.now() + 10_000);
      rmSync(join(root, 'f0', 'n2.md'));
      write('f1/n3.md', 'changed text\n');
      utimesSync(join(root, 'f1', 'n3.md'), later, later);
      renameSync(join(root, 'f1', 'n5.md'), join(root, 'f1', 'renamed.md'));
      rmSync(join(root, 'f2'), { recursive: true });
      rmSync(join(root, '\u{1F600}.md'));
      write('\u{1F600}/new.md', 'new text\n');
      const [changed] = await opened.refreshAll();
      expect(changed).toMatchObject({ added: 2, updated: 1, removed: 1 + 1 + 8 + 1 });
      const onDisk = readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
        .sort();
      expect(stored()).toEqual(onDisk);
      const [again] = await opened.refreshAll();
      expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: onDisk.length });
    });
  }
});

describe('an indexer meeting the stored rows of a deleted folder', () => {
  let base: string;
  let database: IndexDatabase;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'mcpkit-search-cursor-gone-'));
    database = new IndexDatabase(':memory:');
  });
  afterEach(() => {
    database.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('asks again page by page and removes them, the files after them met as unchanged', async () => {
    for (let file = 0; file < 20; file++) {
      mkdirSync(join(base, 'deleted'), { recursive: true });
      writeFileSync(join(base, 'deleted', `${file}.md`), `note ${file}\n`);
    }
    writeFileSync(join(base, 'kept.md'), 'kept\n');
    const directories = new AllowedDirectories([base]);
    const root = directories.roots[0] as string;
    // Pages of 3 rows: meeting kept.md after the 20 deleted rows takes seven calls.
    const writer = { ...sqliteWriter(database), storedFilesUnder: async () => new StoredFileCursor(database, root, 3) };
    const indexer = new Indexer(writer, directories, { maxFileSize: 1024 * 1024 });
    expect(await indexer.refresh(root)).toMatchObject({ added: 21, removed: 0 });
    rmSync(join(base, 'deleted'), { recursive: true });
    expect(await indexer.refresh(root)).toMatchObject({ added: 0, updated: 0, removed: 20, unchanged: 1 });
    expect(database.connection.prepare('SELECT path FROM documents').pluck().all()).toEqual([join(root, 'kept.md')]);
  });

  /** A deleted folder of `count` stored rows before kept.md, indexed; returns the root and the folder's path. */
  async function deletedFolder(count: number, cursor: (root: string) => StoredFileCursor) {
    mkdirSync(join(base, 'deleted'));
    for (let file = 0; file < count; file++) writeFileSync(join(base, 'deleted', `${file}.md`), `note ${file}\n`);
    writeFileSync(join(base, 'kept.md'), 'kept\n');
    const directories = new AllowedDirectories([base]);
    const root = directories.roots[0] as string;
    const writer = { ...sqliteWriter(database), storedFilesUnder: async () => cursor(root) };
    const indexer = new Indexer(writer, directories, { maxFileSize: 1024 * 1024 });
    await indexer.refresh(root);
    rmSync(join(base, 'deleted'), { recursive: true });
    return { root, indexer };
  }

  it('lets the event loop run before each question asked again', async () => {
    const turnedBeforeAskingAgain: boolean[] = [];
    let turned: boolean | undefined;
    // Each askAgain schedules a check; the next meet records whether the event loop ran it in between.
    class Watched extends StoredFileCursor {
      override meet(path: string) {
        if (turned !== undefined) turnedBeforeAskingAgain.push(turned);
        const met = super.meet(path);
        turned = undefined;
        if (met === askAgain) {
          turned = false;
          setImmediate(() => {
            if (turned === false) turned = true;
          });
        }
        return met;
      }
    }
    const { root, indexer } = await deletedFolder(20, (folder) => new Watched(database, folder, 3));
    expect(await indexer.refresh(root)).toMatchObject({ removed: 20, unchanged: 1 });
    expect(turnedBeforeAskingAgain).toHaveLength(6);
    expect(turnedBeforeAskingAgain).not.toContain(false);
  });

  it('meets a folder of many unchanged files in slices, letting the event loop run between them', async () => {
    mkdirSync(join(base, 'flat'));
    for (let file = 0; file < 100; file++) writeFileSync(join(base, 'flat', `${file}.md`), `note ${file}\n`);
    const directories = new AllowedDirectories([base]);
    const root = directories.roots[0] as string;
    let slow = false;
    // Each meet costs 2 ms here (rows a page at a time, many pages): 100 unchanged files take 200 ms in all.
    class Slow extends StoredFileCursor {
      override meet(path: string) {
        const until = performance.now() + (slow ? 2 : 0);
        while (performance.now() < until) {}
        return super.meet(path);
      }
    }
    const writer = { ...sqliteWriter(database), storedFilesUnder: async () => new Slow(database, root) };
    const indexer = new Indexer(writer, directories, { maxFileSize: 1024 * 1024 });
    await indexer.refresh(root);
    slow = true;
    let longest = 0;
    const started = performance.now();
    let last = started;
    const ticks = setInterval(() => {
      longest = Math.max(longest, performance.now() - last);
      last = performance.now();
    }, 1);
    try {
      expect(await indexer.refresh(root)).toMatchObject({ unchanged: 100 });
    } finally {
      clearInterval(ticks);
    }
    longest = Math.max(longest, performance.now() - last);
    const duration = performance.now() - started;
    // Slices of 10 ms: the timer waits about that long, not the whole 200 ms and more of the refresh. Against the
    // refresh's own duration, not a fixed bound: a loaded machine that takes the process off its core adds to a wait.
    expect(longest).toBeLessThan(duration / 2);
  });

  it('stops at the next page when cancelled while it asks again, keeping what it removed', async () => {
    const controller = new AbortController();
    let asked = 0;
    class Cancelling extends StoredFileCursor {
      override meet(path: string) {
        const met = super.meet(path);
        if (met === askAgain && ++asked === 2) controller.abort();
        return met;
      }
    }
    const { root, indexer } = await deletedFolder(60, (folder) => new Cancelling(database, folder, 3));
    await expect(indexer.refresh(root, { signal: controller.signal })).rejects.toThrow(/abort/i);
    const left = database.connection.prepare('SELECT count(*) FROM documents').pluck().get() as number;
    // Two pages' gone ids at most were removed; the rest waits for the next run, which removes them all.
    expect(left).toBeGreaterThan(50);
    expect(await indexer.refresh(root)).toMatchObject({ removed: left - 1, unchanged: 1 });
  });
});
