import { parentPort } from 'node:worker_threads';
import { FileScanner, type ScanJob, type ScanSettings } from './file-scan.js';

/** A job as the pool sends it. */
export interface WorkerRequest {
  id: number;
  settings: ScanSettings;
  job: ScanJob;
}

// One scanner per settings: a grep sends the same settings with every job, so the pattern compiles once.
let current: { key: string; scanner: FileScanner } | undefined;

parentPort?.on('message', (request: WorkerRequest) => {
  try {
    const key = JSON.stringify(request.settings);
    if (current?.key !== key) current = { key, scanner: new FileScanner(request.settings) };
    parentPort?.postMessage({ id: request.id, outcomes: current.scanner.scan(request.job) });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
