import type { ToolProgress } from '../connection/server-connection.js';
import { describeProgress } from '../loop/trace.js';

/** Where a call's progress is shown, and how. */
export interface ProgressLine {
  /** Shows one progress notification. */
  update(progress: ToolProgress): void;
  /** Clears the line on a terminal once the call has ended. */
  done(): void;
}

// Without a terminal each notification is a line of its own, so a chatty server is shown at most once a second.
const plainIntervalMs = 1000;

/**
 * Shows a call's progress: on a terminal one line rewritten in place, otherwise plain lines (at most one a second).
 * `write` is stderr's writer: stdout carries only the result.
 */
export function progressLine(label: string, write: (text: string) => void, terminal: boolean): ProgressLine {
  let shown = false;
  let lastWritten = Number.NEGATIVE_INFINITY;
  return {
    update(progress) {
      const line = `${label} ${describeProgress(progress)}`;
      if (terminal) {
        write(`\r\x1b[K${line}`);
        shown = true;
        return;
      }
      const now = performance.now();
      if (now - lastWritten < plainIntervalMs) return;
      lastWritten = now;
      write(`${line}\n`);
    },
    done() {
      if (shown) write('\r\x1b[K');
      shown = false;
    },
  };
}
