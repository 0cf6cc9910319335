// Worker thread of an SQLite index's writer: the one connection that writes the index file. It stores the batches the
// preparing thread sends (a transaction each, or one across batches during a bulk load; FTS5 tokenizing included) and runs the main thread's commands, so a
// serving process's event loop never runs an insert or a merge, and reading the next batch overlaps this one's writes.
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { BulkLoadStep } from './bulk-load-end.js';
import { type DocumentInput, IndexDatabase } from './index-database.js';
import type { PreparedBatch } from './preparation-worker.js';

/** What the writing thread is started with. */
export interface WriterWorkerData {
  indexFile: string;
  /** The preparing thread's end of their channel. */
  preparation: MessagePort;
}

/** What the main thread asks of the writing thread. */
export type WriterCommandBody = { command: 'delete'; ids: number[] } | BulkLoadStep | { command: 'close' };

/** A command from the main thread; each gets one reply with its id. */
export type WriterCommand = { id: number } & WriterCommandBody;

/**
 * What the writing thread tells the main thread: a command's reply; a batch written (or failed), which lets the next
 * one in; and which written batches a commit made durable, or a rollback lost (a bulk load commits several at once).
 */
export type WriterReply =
  | { id: number; result?: unknown; error?: string }
  | { batch: number; added: number; updated: number; binary: number }
  | { batch: number; error: string }
  | { committed: number[] }
  | { rolledBack: number[]; error: string };

const { indexFile, preparation } = workerData as WriterWorkerData;
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const database = new IndexDatabase(indexFile);
const port = parentPort as MessagePort;

/**
 * During a bulk load, batches share one transaction until it holds this many bytes of files, and FTS5 keeps that many
 * bytes of pending terms: it writes a segment per commit (or per `hashsize` of pending terms), and fewer, larger
 * segments mean fewer merges while loading. 20,000 bench files, storing alone, three alternating runs at load 0.6-1.4:
 * inserts 5.4-6.7 s CPU with 2 MB transactions and FTS5's 1 MiB, 4.2-5.2 s with 16 MB; the final merge the same.
 */
const bulkTransactionBytes = 16 * 1024 * 1024;
/** FTS5's own default `hashsize`, restored after a bulk load. */
const defaultPendingTermBytes = 1024 * 1024;

/** True between a bulk load's start (merging deferred) and its end. */
let bulk = false;
/** Bytes of files in the transaction kept open across batches of a bulk load. */
let openBytes = 0;
/** The batches written in the open transaction, told to the main thread when it commits or rolls back. */
let openBatches: number[] = [];

/** Stores a batch: in its own transaction, or during a bulk load in the open one, committed once it is large. */
function store(batch: number, documents: readonly (DocumentInput & { size: number })[]): void {
  if (!bulk) {
    database.transaction(() => {
      for (const document of documents) database.putDocument(document);
    });
    port.postMessage({ committed: [batch] } satisfies WriterReply);
    return;
  }
  database.beginIfNone();
  try {
    for (const document of documents) {
      database.putDocument(document);
      openBytes += document.size;
    }
  } catch (error) {
    // The batches of the open transaction are lost with this one; the run fails, and the next one reads them again.
    database.rollbackIfOpen();
    port.postMessage({ rolledBack: openBatches, error: message(error) } satisfies WriterReply);
    openBytes = 0;
    openBatches = [];
    throw error;
  }
  openBatches.push(batch);
  if (openBytes >= bulkTransactionBytes) commitOpen();
}

function commitOpen(): void {
  database.commitIfOpen();
  if (openBatches.length > 0) port.postMessage({ committed: openBatches } satisfies WriterReply);
  openBytes = 0;
  openBatches = [];
}

/**
 * For a bulk load, merging deferred with the large buffer of pending terms; otherwise merging a little with each write
 * with FTS5's own buffer (the default). Both are stored in the index file itself.
 */
function setDeferredMerging(deferred: boolean): void {
  bulk = deferred;
  database.setPendingTermBytes(bulk ? bulkTransactionBytes : defaultPendingTermBytes);
  database.setDeferredMerging(deferred);
}

// A bulk load that died (a crash, a kill) left its settings in the file: later writes would never merge.
setDeferredMerging(false);

function run(command: WriterCommand): unknown {
  // Whatever the main thread asks next sees every batch stored so far committed (a bulk load ends with a command).
  commitOpen();
  switch (command.command) {
    case 'delete':
      return database.transaction(() => {
        for (const id of command.ids) database.deleteDocument(id);
      });
    case 'defer-merging':
      return setDeferredMerging(command.deferred);
    case 'merge':
      return database.mergeStep();
    case 'release':
      return database.releaseFreePages();
    case 'checkpoint':
      return database.checkpoint();
    case 'close':
      preparation.close();
      return database.close();
  }
}

port.on('message', (command: WriterCommand) => {
  try {
    port.postMessage({ id: command.id, result: run(command) } satisfies WriterReply);
  } catch (error) {
    port.postMessage({ id: command.id, error: message(error) } satisfies WriterReply);
  }
});

preparation.on('message', (prepared: PreparedBatch) => {
  if ('error' in prepared) {
    port.postMessage(prepared satisfies WriterReply);
    return;
  }
  try {
    store(prepared.batch, prepared.documents);
    const counts = { added: 0, updated: 0, binary: 0 };
    for (const document of prepared.documents) {
      if (!document.text) counts.binary++;
      else if (document.isNew) counts.added++;
      else counts.updated++;
    }
    port.postMessage({ batch: prepared.batch, ...counts } satisfies WriterReply);
  } catch (error) {
    port.postMessage({ batch: prepared.batch, error: message(error) } satisfies WriterReply);
  }
});
