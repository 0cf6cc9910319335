let listening = false;

/**
 * Keeps the process serving when the reader of its stderr goes away (a host that closed its end of the pipe, or a
 * pipe into `head`): every log line then fails with EPIPE, and an `error` event that nobody listens to ends the
 * process. The lines have nowhere to go; the protocol travels on stdout or HTTP and goes on. Once a process.
 */
export function outliveClosedStderr(): void {
  if (listening) return;
  listening = true;
  process.stderr.on('error', () => {});
}
