import { defineTool } from '../../src/define-tool.js';

/** A tool named `wait` that runs until its signal is aborted, and what it saw: for cancellation and shutdown tests. */
export function waitingTool() {
  const seen = { started: false, aborted: false, reason: undefined as unknown };
  const tool = defineTool({
    name: 'wait',
    description: 'Waits until its signal is aborted.',
    handler: (_args, { signal }) =>
      new Promise<string>((resolve) => {
        seen.started = true;
        signal.addEventListener('abort', () => {
          seen.aborted = true;
          seen.reason = signal.reason;
          resolve('stopped');
        });
      }),
  });
  return { tool, seen };
}
