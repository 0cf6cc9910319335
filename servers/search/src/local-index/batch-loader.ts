import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ChangedFile } from './document-preparation.js';
import type { BatchCounts, FileWriter, IndexedDocument, IndexWriter } from './index-writer.js';

/** How the changed files of a run are cut into batches and stored. */
export interface BatchLoaderOptions {
  writer: IndexWriter;
  root: string;
  /** Files per batch at most. */
  batchFiles: number;
  /** A batch ends once its files hold this many bytes. */
  batchBytes: number;
  /** A run that stores this many files or more is a bulk load: merging deferred, one merge at the end. */
  bulkFiles: number;
  /** Reads a batch on this thread, for a writer without `indexFiles`. */
  readBatch: (batch: ChangedFile[]) => Promise<(IndexedDocument & { isNew: boolean })[]>;
  /** Hears the number of files stored so far after each batch. */
  onStored: (stored: number) => void;
  signal?: AbortSignal;
}

/**
 * Batches handed to a writer that reads files itself (`indexFiles`) before the first of them is stored: two, so one is
 * read while the other is written, and at most two batches of text are held besides the one being gathered.
 */
const batchesInFlight = 2;

/**
 * Stores the changed files of a run as the walk finds them, in batches of one transaction each: the run holds one
 * batch being gathered and the batches in flight, never the list of every changed file (constant memory whatever the
 * corpus). With a writer that reads files itself, reading a batch overlaps storing the one before it.
 */
export class BatchLoader {
  readonly counts: BatchCounts = { added: 0, updated: 0, binary: 0 };
  /** Files handed over to be stored. */
  handed = 0;
  /** Files stored (committed). */
  stored = 0;
  /** True once the run turned into a bulk load (`startBulkLoad` called). */
  bulk = false;
  private gathering: ChangedFile[] = [];
  private gatheringBytes = 0;
  private readonly inFlight: Promise<void>[] = [];
  /** Batches written but not committed yet (a bulk load's share a transaction until it is large). */
  private readonly committing = new Set<Promise<void>>();

  constructor(private readonly options: BatchLoaderOptions) {}

  /** Takes one changed file; hands a batch over once it is full (waiting while two are in flight). */
  async add(file: ChangedFile): Promise<void> {
    this.gathering.push(file);
    this.gatheringBytes += file.size;
    if (this.gathering.length >= this.options.batchFiles || this.gatheringBytes >= this.options.batchBytes) {
      await this.handOver();
    }
  }

  /**
   * Hands over the last batch and waits until every batch is written (`committed` waits for the commits). After a failure or a cancel, the batches
   * already handed over are still waited for (at most two), so the run ends with no write under way.
   */
  async finish(): Promise<void> {
    let stopped: { error: unknown } | undefined;
    try {
      if (this.gathering.length > 0) await this.handOver();
    } catch (error) {
      stopped = { error };
    }
    await this.settle(stopped);
  }

  /**
   * Waits until every batch written is committed, after the writer's next command (which commits a bulk load's open
   * transaction); throws when one was rolled back.
   */
  async committed(): Promise<void> {
    await Promise.all([...this.committing]);
  }

  /** Waits for the batches in flight after the run stopped with `error`, then throws it. */
  async abandon(error: unknown): Promise<never> {
    await this.settle({ error });
    throw error;
  }

  private async settle(stopped: { error: unknown } | undefined): Promise<void> {
    const settled = await this.waitFor(this.inFlight.splice(0), stopped !== undefined);
    if (stopped) throw stopped.error;
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  private async handOver(): Promise<void> {
    const { writer, signal } = this.options;
    signal?.throwIfAborted();
    const batch = this.gathering;
    this.gathering = [];
    this.gatheringBytes = 0;
    if (!this.bulk && this.handed + batch.length >= this.options.bulkFiles) {
      this.bulk = true;
      await writer.startBulkLoad();
    }
    this.handed += batch.length;
    if (!writer.indexFiles) {
      const documents = await this.options.readBatch(batch);
      await writer.writeDocuments(documents);
      const counts = { added: 0, updated: 0, binary: 0 };
      for (const document of documents) {
        if (!document.text) counts.binary++;
        else if (document.isNew) counts.added++;
        else counts.updated++;
      }
      this.storedBatch(batch.length, counts);
      await yieldToEventLoop();
      return;
    }
    const files = batch.length;
    const written = writer.indexFiles(this.options.root, batch).then(({ counts, committed }) => {
      // Counted as stored once committed: a bulk load's open transaction can still be rolled back.
      const stored = committed.then(() => this.storedBatch(files, counts));
      this.committing.add(stored);
      stored.then(
        () => this.committing.delete(stored),
        () => {},
      );
    });
    // Awaited when the window is full or in `finish`; a failure is not left unhandled meanwhile.
    written.catch(() => {});
    this.inFlight.push(written);
    if (this.inFlight.length >= batchesInFlight) {
      const [oldest] = await this.waitFor([this.inFlight.shift() as Promise<void>], false);
      if (oldest?.status === 'rejected') throw oldest.reason;
    }
  }

  /**
   * Waits for batches in flight. Once the run is stopped (`stopped`, or its signal aborts meanwhile) not for good: the
   * writer gives up on batches still unwritten after its grace period (a thread stuck in a read on a hung mount).
   */
  private waitFor(batches: Promise<void>[], stopped: boolean): Promise<PromiseSettledResult<void>[]> {
    const waiting = Promise.allSettled(batches);
    const { writer, signal } = this.options;
    if (!writer.indexFiles || batches.length === 0) return waiting;
    const giveUp = () => (writer as FileWriter).abandonStuckBatches();
    if (stopped || signal?.aborted) giveUp();
    else if (signal) {
      signal.addEventListener('abort', giveUp, { once: true });
      void waiting.finally(() => signal.removeEventListener('abort', giveUp));
    }
    return waiting;
  }

  private storedBatch(files: number, counts: BatchCounts): void {
    this.counts.added += counts.added;
    this.counts.updated += counts.updated;
    this.counts.binary += counts.binary;
    this.stored += files;
    this.options.onStored(this.stored);
  }
}
