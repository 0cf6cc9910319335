import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { IndexDatabase } from './index-database.js';
import type { DocumentWriter } from './index-writer.js';
import { StoredFileCursor } from './stored-file-cursor.js';

/** A batch's writes yield to the event loop after this long, so requests keep flowing during a large batch. */
const sliceMs = 20;

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
      database.transaction(() => {
        for (const id of ids) database.deleteDocument(id);
      });
    },
    async acquire() {
      return async () => {};
    },
    async startBulkLoad() {
      database.setAutomerge(false);
    },
    async finishBulkLoad(keepGoing) {
      // With automatic merging back on, later writes merge what a cancelled run leaves.
      database.setAutomerge(true);
      while (keepGoing() && database.mergeStep()) await yieldToEventLoop();
      // The pages the merges freed go back in steps too (a merged index would otherwise keep a tenth of its size free).
      while (keepGoing() && database.releaseFreePages()) await yieldToEventLoop();
      database.checkpoint();
    },
  };
}
