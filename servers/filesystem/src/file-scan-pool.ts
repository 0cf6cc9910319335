import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ScanJob, ScanOutcome, ScanSettings } from './file-scan.js';
import type { WorkerRequest } from './file-scan-worker.js';

interface Busy {
  worker: Worker;
  inFlight: number;
}

/**
 * Worker threads that read and pre-match grep's files, so reading uses every core while the main thread walks and
 * stays free for other requests. Started on first use; unreferenced, so they never keep the process alive.
 */
export class FileScanPool {
  private readonly workers: Busy[] = [];
  private readonly pending = new Map<
    number,
    { resolve(outcomes: ScanOutcome[]): void; reject(error: Error): void; busy: Busy }
  >();
  private nextId = 0;

  private constructor(script: URL, size: number) {
    for (let index = 0; index < size; index++) {
      const worker = new Worker(script);
      worker.unref();
      const busy: Busy = { worker, inFlight: 0 };
      worker.on('message', (message: { id: number; outcomes?: ScanOutcome[]; error?: string }) => {
        const waiting = this.pending.get(message.id);
        if (!waiting) return;
        this.pending.delete(message.id);
        busy.inFlight--;
        if (message.outcomes) waiting.resolve(message.outcomes);
        else waiting.reject(new Error(message.error ?? 'the scan worker failed'));
      });
      worker.on('error', (error) => this.fail(busy, error));
      worker.on('exit', () => this.fail(busy, new Error('the scan worker exited')));
      this.workers.push(busy);
    }
  }

  /**
   * A pool of one worker per core beyond the first (at least one), or undefined where the compiled worker script is
   * absent (sources run without a build, as in unit tests): grep then reads on the main thread.
   */
  static start(): FileScanPool | undefined {
    const script = new URL('./file-scan-worker.js', import.meta.url);
    if (script.protocol !== 'file:' || !existsSync(fileURLToPath(script))) return undefined;
    return new FileScanPool(script, Math.max(1, Math.min(4, availableParallelism())));
  }

  /** Scans a job on the least busy worker. */
  scan(settings: ScanSettings, job: ScanJob): Promise<ScanOutcome[]> {
    const busy = this.workers.reduce<Busy | undefined>(
      (best, candidate) => (best === undefined || candidate.inFlight < best.inFlight ? candidate : best),
      undefined,
    );
    if (!busy) return Promise.reject(new Error('no scan worker is running'));
    const id = this.nextId++;
    busy.inFlight++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, busy });
      busy.worker.postMessage({ id, settings, job } satisfies WorkerRequest);
    });
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((busy) => busy.worker.terminate()));
  }

  private fail(busy: Busy, error: Error): void {
    const index = this.workers.indexOf(busy);
    if (index !== -1) this.workers.splice(index, 1);
    for (const [id, waiting] of this.pending) {
      if (waiting.busy !== busy) continue;
      this.pending.delete(id);
      waiting.reject(error);
    }
  }
}
