import { expect, it } from 'vitest';
import { BatchLoader } from './batch-loader.js';
import type { ChangedFile } from './document-preparation.js';
import type { FileWriter, WrittenBatch } from './index-writer.js';
import { storedFileMap } from './stored-file-map.js';

/** A writer that reads files itself, whose batches are stored only when the test says so. */
function heldWriter() {
  const handed: { files: readonly ChangedFile[]; store(): void }[] = [];
  const writer: FileWriter = {
    storedFilesUnder: async () => storedFileMap(new Map()),
    deleteDocuments: async () => {},
    acquire: async () => async () => {},
    startBulkLoad: async () => {},
    finishBulkLoad: async () => {},
    abandonStuckBatches: () => {},
    indexFiles: (_root, files) =>
      new Promise<WrittenBatch>((resolve) => {
        const counts = { added: files.length, updated: 0, binary: 0 };
        handed.push({ files, store: () => resolve({ counts, committed: Promise.resolve() }) });
      }),
  };
  return { writer, handed };
}

const file = (index: number): ChangedFile => ({ path: `/d/${index}.md`, size: 10, mtimeMs: 0, isNew: true });

it('holds at most two batches in flight: adding waits until the first is stored, so memory does not grow with the run', async () => {
  const { writer, handed } = heldWriter();
  const loader = new BatchLoader({
    writer,
    root: '/d',
    batchFiles: 10,
    batchBytes: 1 << 20,
    bulkFiles: 1000,
    readBatch: async () => [],
    onStored: () => {},
  });
  for (let index = 0; index < 19; index++) await loader.add(file(index));
  expect(handed.map((batch) => batch.files.length)).toEqual([10]);
  // The second batch is handed over, and the add that did it waits for the first to be stored.
  let added = false;
  const adding = loader.add(file(19)).then(() => {
    added = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(handed).toHaveLength(2);
  expect(added).toBe(false);
  handed[0]?.store();
  await adding;
  handed[1]?.store();
  await loader.finish();
  expect(loader.counts.added).toBe(20);
  expect(loader.stored).toBe(20);
});

it('stops handing over when cancelled and still waits for the batches in flight', async () => {
  const { writer, handed } = heldWriter();
  const controller = new AbortController();
  const loader = new BatchLoader({
    writer,
    root: '/d',
    batchFiles: 5,
    batchBytes: 1 << 20,
    bulkFiles: 1000,
    readBatch: async () => [],
    onStored: () => controller.abort(),
    signal: controller.signal,
  });
  for (let index = 0; index < 5; index++) await loader.add(file(index));
  const adding = (async () => {
    for (let index = 5; index < 20; index++) await loader.add(file(index));
  })();
  await new Promise((resolve) => setTimeout(resolve, 20));
  handed[0]?.store();
  const failure = adding.catch((error: unknown) => error);
  await new Promise((resolve) => setTimeout(resolve, 20));
  let ended = false;
  const ending = loader.abandon(await failure).catch(() => {
    ended = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(ended).toBe(false); // a batch is still being stored
  for (const batch of handed) batch.store();
  await ending;
  expect(ended).toBe(true);
  expect(handed.length).toBeLessThanOrEqual(3);
  expect(loader.stored).toBeLessThan(20);
});

it('counts a written batch as stored only once it is committed (a bulk load can still roll it back)', async () => {
  const commits: (() => void)[] = [];
  const writer: FileWriter = {
    ...heldWriter().writer,
    indexFiles: async (_root, files) => ({
      counts: { added: files.length, updated: 0, binary: 0 },
      committed: new Promise<void>((resolve) => commits.push(resolve)),
    }),
  };
  const reported: number[] = [];
  const loader = new BatchLoader({
    writer,
    root: '/d',
    batchFiles: 5,
    batchBytes: 1 << 20,
    bulkFiles: 1000,
    readBatch: async () => [],
    onStored: (stored) => reported.push(stored),
  });
  for (let index = 0; index < 12; index++) await loader.add(file(index));
  await loader.finish();
  expect(loader.stored).toBe(0);
  expect(loader.counts.added).toBe(0);
  commits[0]?.();
  commits[1]?.();
  let committed = false;
  const waiting = loader.committed().then(() => {
    committed = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(reported).toEqual([5, 10]);
  expect(committed).toBe(false); // the last batch is written, not committed
  commits[2]?.();
  await waiting;
  expect(loader.stored).toBe(12);
  expect(loader.counts.added).toBe(12);
});
