import type { IndexProgress } from './local-index/indexer.js';

/** Where progress goes: a stream and whether it is a terminal. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Shows indexing progress: on a terminal, one bar redrawn in place; otherwise plain lines at most every ten
 * percent (or every 10,000 files while scanning) so logs stay readable.
 */
export function createProgressBar(output: ProgressOutput): { update(progress: IndexProgress): void; done(): void } {
  let lastLine = '';
  let lastStep = -1;
  let drawn = false;
  return {
    update(progress) {
      let line: string;
      let step: number;
      if (progress.phase === 'waiting') {
        line = `Waiting: ${progress.message ?? 'another indexer is writing'}`;
        step = -2;
      } else if (progress.phase === 'scanning') {
        // Changed files are stored while the scan goes on.
        const stored = progress.stored ? `, ${progress.stored.toLocaleString('en-US')} changed files indexed` : '';
        line = `Scanning ${progress.directory}: ${progress.done.toLocaleString('en-US')} files${stored}`;
        step = Math.floor(progress.done / 10_000);
      } else if (progress.phase === 'merging') {
        line = `Merging the index after ${(progress.total ?? 0).toLocaleString('en-US')} changed files ...`;
        step = 200;
      } else {
        const total = progress.total ?? 0;
        const fraction = total === 0 ? 1 : progress.done / total;
        const width = Math.max(10, Math.min(30, (output.columns ?? 80) - 60));
        const filled = Math.round(fraction * width);
        const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
        const counts = `${progress.done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} changed files`;
        line = `${progress.phase === 'done' ? 'Indexed' : 'Indexing'} ${bar} ${Math.round(fraction * 100)}% ${counts}`;
        step = 100 + Math.floor(fraction * 10) + (progress.phase === 'done' ? 1 : 0);
      }
      if (output.isTTY) {
        if (line === lastLine) return;
        output.write(`\r\u001b[2K${line}`);
        drawn = true;
      } else if (step !== lastStep) {
        output.write(`${line}\n`);
      }
      lastLine = line;
      lastStep = step;
    },
    done() {
      if (output.isTTY && drawn) output.write('\n');
    },
  };
}
