// Worker thread of an SQLite index's writer: reads the changed files of a batch and turns them into documents, which
// go straight to the writing thread (`writer-worker.ts`) through the port it was given. Blocking reads are fine here:
// this thread serves nothing else, and they cost a fraction of the promise API's (no thread-pool hop per call).
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { AllowedDirectories } from '../allowed-directories.js';
import { readOpenedFileSync } from '../confined-file.js';
import { type ChangedFile, prepareDocument } from './document-preparation.js';
import type { DocumentInput } from './index-database.js';

/** What the preparing thread is started with. */
export interface PreparationWorkerData {
  /** The allowed directories (real paths): a file whose descriptor points elsewhere is skipped. */
  roots: string[];
  maxFileSize: number;
  /** The writing thread's end of their channel. */
  writer: MessagePort;
}

/** A batch to read, from the main thread. */
export interface PreparationRequest {
  batch: number;
  root: string;
  files: ChangedFile[];
}

/** A batch read, to the writing thread: documents to store in one transaction, or why the batch failed. */
export type PreparedBatch =
  | { batch: number; documents: (DocumentInput & { isNew: boolean })[] }
  | { batch: number; error: string };

const { roots, maxFileSize, writer } = workerData as PreparationWorkerData;
// The main thread's real paths as they are: resolving them again here (the threads start at the first write, or
// again after a failure) would follow a folder swapped for a link since, and refuse all when one folder is gone.
const directories = new AllowedDirectories(roots, { realPaths: true });
const limits = { maxBytes: maxFileSize, tooLarge: () => 'too large' };

function prepare({ batch, root, files }: PreparationRequest): PreparedBatch {
  const documents: (DocumentInput & { isNew: boolean })[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      // Read through the descriptor that was checked: a file swapped for a link, a FIFO or a bigger file between
      // the walk and the read is skipped, never read outside the directories, waited on or read past the cap.
      bytes = readOpenedFileSync(directories, file.path, file.path, limits).bytes;
    } catch {
      continue; // vanished or refused between the walk and the read; the next run looks again
    }
    const {
      content: _text,
      root: _root,
      ...document
    } = prepareDocument(file, root, directories.relativeToRoot(file.path, root), bytes);
    documents.push(document);
  }
  return { batch, documents };
}

parentPort?.on('message', (request: PreparationRequest) => {
  let prepared: PreparedBatch;
  try {
    prepared = prepare(request);
  } catch (error) {
    prepared = { batch: request.batch, error: error instanceof Error ? error.message : String(error) };
  }
  writer.postMessage(prepared);
});
