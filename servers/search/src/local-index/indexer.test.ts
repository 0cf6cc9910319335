import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fts5Settings } from '../../test/fts5-settings.js';
import { LocalIndex } from './local-index.js';
import { searchIndex } from './search-query.js';

let directory: string;
let index: LocalIndex;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcpkit-search-indexer-'));
  await writeFile(join(directory, 'alpha.md'), '# Alpha\n\nThe quick brown fox.\n');
  await writeFile(join(directory, 'beta.txt'), 'Nothing about animals here.\n');
  await mkdir(join(directory, 'notes'));
  await writeFile(join(directory, 'notes', 'gamma.md'), 'Gamma mentions the fox twice: fox.\n');
  index = new LocalIndex({ directories: [directory], indexFile: join(directory, '.index', 'index.sqlite') });
});

afterEach(async () => {
  await index.close();
  await rm(directory, { recursive: true, force: true });
});

const paths = (query: string) =>
  searchIndex(index.database, { query, limit: 20, offset: 0, roots: index.directories.roots }).hits.map((hit) =>
    hit.path.slice(directory.length + 1),
  );

describe('Indexer', () => {
  it('indexes text files and finds them', async () => {
    const [report] = await index.refreshAll();
    expect(report).toMatchObject({ scanned: 3, added: 3, updated: 0, removed: 0 });
    expect(paths('fox').sort()).toEqual(['alpha.md', 'notes/gamma.md']);
  });

  it('reads only changed files on a re-run and drops deleted ones', async () => {
    await index.refreshAll();
    const [unchanged] = await index.refreshAll();
    expect(unchanged).toMatchObject({ scanned: 3, added: 0, updated: 0, removed: 0, unchanged: 3 });

    await writeFile(join(directory, 'alpha.md'), '# Alpha\n\nNow about a lazy dog instead.\n');
    await utimes(join(directory, 'alpha.md'), new Date(), new Date(Date.now() + 5000));
    await rm(join(directory, 'notes', 'gamma.md'));
    await writeFile(join(directory, 'delta.md'), 'A new fox appears.\n');
    const [changed] = await index.refreshAll();
    expect(changed).toMatchObject({ added: 1, updated: 1, removed: 1, unchanged: 1 });
    expect(paths('fox')).toEqual(['delta.md']);
    expect(paths('dog')).toEqual(['alpha.md']);
    expect(index.database.counts().documents).toBe(3);
  });

  it('follows .gitignore at every level and skips binaries, big files and the index itself', async () => {
    await writeFile(join(directory, '.gitignore'), 'secret.md\nbuild/\n');
    await writeFile(join(directory, 'secret.md'), 'fox in a secret file\n');
    await mkdir(join(directory, 'build'));
    await writeFile(join(directory, 'build', 'out.md'), 'fox in build output\n');
    await writeFile(join(directory, 'notes', '.gitignore'), '*.log.md\n!keep.log.md\n');
    await writeFile(join(directory, 'notes', 'noise.log.md'), 'fox in a log\n');
    await writeFile(join(directory, 'notes', 'keep.log.md'), 'fox kept\n');
    await writeFile(join(directory, 'binary.txt'), Buffer.from([0x66, 0x6f, 0x78, 0x00, 0x01]));
    await writeFile(join(directory, 'image.png'), 'fox but a png');
    await writeFile(join(directory, 'huge.md'), `fox ${'x'.repeat(2 * 1024 * 1024)}`);
    await mkdir(join(directory, 'node_modules'));
    await writeFile(join(directory, 'node_modules', 'dep.md'), 'fox in a dependency\n');
    const [report] = await index.refreshAll();
    expect(report?.binary).toBe(1);
    expect(paths('fox').sort()).toEqual(['alpha.md', 'notes/gamma.md', 'notes/keep.log.md']);
    // The binary file is remembered so the next run does not read it again.
    const [again] = await index.refreshAll();
    expect(again).toMatchObject({ added: 0, updated: 0, binary: 0 });
  });

  it('refreshes a sub-directory without touching the rest', async () => {
    await index.refreshAll();
    await writeFile(join(directory, 'notes', 'epsilon.md'), 'fox number three\n');
    await rm(join(directory, 'beta.txt'));
    const report = await index.indexer.refresh(join(index.directories.roots[0] as string, 'notes'));
    expect(report).toMatchObject({ scanned: 2, added: 1, removed: 0 });
    expect(paths('animals')).toEqual(['beta.txt']);
  });

  it('loads over a thousand files in bulk, merges once, and stays searchable and updatable', async () => {
    await index.close();
    index = new LocalIndex({
      directories: [directory],
      indexFile: join(directory, '.index', 'bulk.sqlite'),
      batchFiles: 100,
    });
    for (let file = 0; file < 1200; file++) await writeFile(join(directory, `bulk-${file}.md`), `bulk note ${file}\n`);
    const phases = new Set<string>();
    const report = await index.indexer.refresh(index.directories.roots[0] as string, {
      onProgress: (progress) => phases.add(progress.phase),
    });
    expect(report.added).toBe(1203);
    expect([...phases]).toEqual(['scanning', 'indexing', 'merging', 'done']);
    // Everything was merged at the end of the run: another merge step finds nothing to do.
    expect(index.database.mergeStep()).toBe(false);
    // The bulk load's larger FTS5 buffer ends with it (its transactions are committed: the rows above are read here).
    // So does its deferred merging: writes after it merge a little at a time again (automerge); a level merges at once
    // only at 64 segments, so that what a cancelled load leaves is not merged all at once by the next write.
    expect(fts5Settings(index.database)).toMatchObject({ hashsize: 1024 * 1024, automerge: 4, crisismerge: 64 });
    expect(paths('bulk').length).toBe(20);
    expect(paths('"note 1199"')).toEqual(['bulk-1199.md']);
    await writeFile(join(directory, 'bulk-5.md'), 'rewritten\n');
    await utimes(join(directory, 'bulk-5.md'), new Date(), new Date(Date.now() + 5000));
    await index.refreshAll();
    expect(paths('rewritten')).toEqual(['bulk-5.md']);
  });

  it('reports as stored only what is committed, during a bulk load whose transactions span batches', async () => {
    await index.close();
    index = new LocalIndex({
      directories: [directory],
      indexFile: join(directory, '.index', 'index.sqlite'),
      batchFiles: 100,
    });
    for (let file = 0; file < 1200; file++) await writeFile(join(directory, `bulk-${file}.md`), `bulk file ${file}\n`);
    // This thread's connection sees only committed rows (the writing thread has its own).
    const visible = index.database.connection.prepare('SELECT count(*) FROM documents').pluck();
    const seen: { stored: number; visible: number }[] = [];
    await index.refreshAll({
      onProgress: (progress) => {
        const stored = progress.phase === 'scanning' ? (progress.stored ?? 0) : progress.done;
        if (progress.phase !== 'done') seen.push({ stored, visible: visible.get() as number });
      },
    });
    expect(seen.some((moment) => moment.stored > 0)).toBe(true);
    for (const moment of seen) expect(moment.stored).toBeLessThanOrEqual(moment.visible);
  });

  it('stops at the next batch when cancelled and keeps what it committed', async () => {
    await index.close();
    index = new LocalIndex({
      directories: [directory],
      indexFile: join(directory, '.index', 'index.sqlite'),
      batchFiles: 100,
    });
    for (let file = 0; file < 600; file++) await writeFile(join(directory, `bulk-${file}.md`), `bulk file ${file}\n`);
    const controller = new AbortController();
    const refresh = index.indexer.refresh(index.directories.roots[0] as string, {
      signal: controller.signal,
      // Files are stored as the walk finds them: cancelled once the first batch is stored.
      onProgress: (progress) => {
        if ((progress.stored ?? 0) > 0 || (progress.phase === 'indexing' && progress.done > 0)) controller.abort();
      },
    });
    await expect(refresh).rejects.toThrow();
    const stored = index.database.counts().documents;
    expect(stored).toBeGreaterThan(0);
    // The batches already handed over (two at most) are stored; no batch after the cancel is.
    expect(stored).toBeLessThanOrEqual(300);
    const [finished] = await index.refreshAll();
    expect(finished?.unchanged).toBe(stored);
    expect(index.database.counts().documents).toBe(603);
  });
});

describe('text extraction of hostile HTML', () => {
  it('reads HTML of unclosed openers in one pass, keeping text, titles and line numbers', async () => {
    const { extractText } = await import('./text-extraction.js');
    const ordinary = extractText(
      'page.html',
      Buffer.from(
        '<html><head><title>T &amp; U</title><style>p{}\n</style></head>\n<body><!-- a\nb --><p a="1>">x &lt; y</p>\n' +
          '<script>var s = "<p>";</script>z &#128512; &#x41;</body></html>',
      ),
    );
    expect(ordinary.title).toBe('T &amp; U');
    expect(ordinary.text.split('\n')).toHaveLength(5);
    expect(ordinary.text).toContain('x < y');
    expect(ordinary.text).toContain('z 😀 A');
    expect(ordinary.text).not.toContain('var s');
    const megabyte = 1024 * 1024;
    for (const opener of ['<', '<!--', '<script>', '<title', '<script></script']) {
      const started = performance.now();
      const tail = opener === '<script></script' ? 'x'.repeat(megabyte / 2) : '';
      extractText('hostile.html', Buffer.from(opener.repeat(megabyte / opener.length / 2) + tail));
      // Tens of milliseconds here; a quadratic or backtracking scan of a megabyte takes minutes, so 5 s spares a
      // loaded machine without letting one through.
      expect(performance.now() - started, opener).toBeLessThan(5000);
    }
  });
});
