import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type BulkLoadStep, endBulkLoad } from './bulk-load-end.js';
import type { IndexDatabase } from './index-database.js';
import type { DocumentWriter } from './index-writer.js';
import { StoredFileCursor } from './stored-file-cursor.js';

/** A batch's writes yield to the event loop after this long, so requests keep flowing during a large batch. */
const sliceMs = 20;

/** Runs a step of a bulk load's end on this thread's connection; true when a merge or release has more to do. */
function runStep(database: IndexDatabase, step: BulkLoadStep): boolean {
  switch (step.command) {
    case 'defer-merging':
      database.setDeferredMerging(step.deferred);
      return false;
    case 'merge':
      return database.mergeStep();
    case 'release':
      return database.releaseFreePages();
    case 'checkpoint':
      database.checkpoint();
      return false;
  }
}

/** The indexer's writes to an SQLite index file; one process writes it, so `acquire` never waits. */
export function sqliteWriter(database: IndexDatabase): DocumentWriter {
  return {
    async storedFilesUnder(_root, directory) {
      return new StoredFileCursor(database, directory);
    },
    async writeDocuments(documents) {
      await database.slicedTransaction(documents, (document) => database.putDocument(document), sliceMs);
    },
    async deleteDocuments(ids) {
      // In slices like a batch's writes: a folder of many thousands of files gone from disk is one call.
      await database.slicedTransaction(ids, (id) => database.deleteDocument(id), sliceMs);
    },
    async acquire() {
      return async () => {};
    },
    async startBulkLoad() {
      database.setDeferredMerging(true);
    },
    async finishBulkLoad(keepGoing) {
      await endBulkLoad(async (step) => {
        const more = runStep(database, step);
        await yieldToEventLoop();
        return more;
      }, keepGoing);
    },
  };
}
