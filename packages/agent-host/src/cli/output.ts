// The one file of the host that writes to stdout (scripts/check-stdout.mjs allows exactly this path): answers and
// listings go to stdout so they can be piped; the trace, server logs and errors go to stderr.

// A reader that went away (`mcpkit-host tools | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** Writes to stdout: the answer, a listing, JSON. */
export function writeOut(text: string): void {
  process.stdout.write(text);
}

/** Writes to stderr: the trace, server logs, errors. */
export function writeError(text: string): void {
  process.stderr.write(text);
}

/** Whether a person is at the terminal (both ends are TTYs), so the host may ask questions. */
export function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/** Waits until stdout has flushed, so that exiting does not cut a piped answer short. */
export function flushOut(): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.writableNeedDrain) process.stdout.once('drain', () => resolve());
    else resolve();
  });
}
