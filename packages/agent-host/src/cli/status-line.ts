import type { ToolProgress } from '../connection/tool-call.js';
import type { AgentListener } from '../loop/agent-events.js';
import { describeProgress, traceListener } from '../loop/trace.js';

// Without a terminal each notification is a line of its own, so a chatty server is shown at most once a second.
const plainIntervalMs = 1000;

/**
 * The progress of tool calls on stderr: on a terminal one line rewritten in place and cleared before anything else is
 * written; otherwise plain lines, at most one a second per call.
 */
export class StatusLine {
  private shown = false;
  private readonly lastWritten = new Map<string, number>();

  constructor(
    private readonly write: (text: string) => void,
    private readonly terminal: boolean,
  ) {}

  /** Shows a call's progress; `key` tells calls apart for the once-a-second rule. */
  progress(label: string, progress: ToolProgress, key = label): void {
    const line = `${label} ${describeProgress(progress)}`;
    if (this.terminal) {
      this.write(`\r\x1b[K${line}`);
      this.shown = true;
      return;
    }
    const now = performance.now();
    if (now - (this.lastWritten.get(key) ?? Number.NEGATIVE_INFINITY) < plainIntervalMs) return;
    this.lastWritten.set(key, now);
    this.write(`${line}\n`);
  }

  /** Writes other text, after clearing the progress line. */
  print(text: string): void {
    this.clear();
    this.write(text);
  }

  /** Clears the progress line, if one is shown. */
  clear(): void {
    if (this.shown) this.write('\r\x1b[K');
    this.shown = false;
  }

  /** The trace of a run through this line: its lines printed, each call's progress shown. */
  traceListener(): AgentListener {
    const trace = traceListener((text) => this.print(text), { progress: false });
    return (event) => {
      if (event.type === 'tool-call-end') this.lastWritten.delete(event.callId);
      if (event.type !== 'tool-call-progress') return trace(event);
      const where = event.server ? `${event.server}.${event.tool}` : event.name;
      this.progress(`  ⋯ ${where}`, event, event.callId);
    };
  }
}
