import { FileScanner, type ScanJob, type ScanOutcome, type ScanSettings } from './file-scan.js';

/** What grep sends to a worker for one job. */
export interface ScanTaskInput {
  settings: ScanSettings;
  job: ScanJob;
}

// One scanner per settings: a grep sends the same settings with every job, so the pattern compiles once per worker.
let current: { key: string; scanner: FileScanner } | undefined;

/** Reads and matches one job of grep's files; an off-thread task run by the server's worker pool. */
export function scanFiles(input: ScanTaskInput): ScanOutcome[] {
  const key = JSON.stringify(input.settings);
  if (current?.key !== key) current = { key, scanner: new FileScanner(input.settings) };
  return current.scanner.scan(input.job);
}
