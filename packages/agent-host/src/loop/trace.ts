import type { AgentListener } from './agent-events.js';

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A progress notification in a few words: `3/8 reading files`, or `3 reading files` without a total. */
export function describeProgress(progress: { progress: number; total?: number; message?: string }): string {
  const amount = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
  return progress.message ? `${amount} ${oneLine(progress.message, 120)}` : amount;
}

// A call that reports progress many times a second is shown at most once a second.
const progressIntervalMs = 1000;

/** How much a trace shows. */
export interface TraceOptions {
  /** Lines of each tool result shown under its call (default 0: the first line, folded, on the call's own line). */
  resultLines?: number;
  /** Whether progress notifications are lines of the trace, at most one a second per call (default true). */
  progress?: boolean;
}

/** The first lines of a tool result, indented, with a count of the lines left out. */
function preview(text: string, lines: number): string {
  const all = text.trim().split('\n');
  const shown = all.slice(0, lines).map((line) => `      ${oneLine(line, 110)}`.trimEnd());
  const rest = all.length - shown.length;
  if (rest > 0) shown.push(`      … ${rest} more line${rest === 1 ? '' : 's'}`);
  return `${shown.join('\n')}\n`;
}

/** A readable trace of a run, one line per event worth seeing: steps, tool calls with durations, the totals. */
export function traceListener(write: (text: string) => void, options: TraceOptions = {}): AgentListener {
  const resultLines = options.resultLines ?? 0;
  const showProgress = options.progress ?? true;
  const lastProgress = new Map<string, number>();
  return (event) => {
    switch (event.type) {
      case 'step-start':
        write(`step ${event.step}\n`);
        break;
      case 'model-response':
        if (event.toolCalls.length > 0 && event.text.trim()) write(`  model: ${oneLine(event.text, 160)}\n`);
        if (event.toolCalls.length > 1)
          write(`  (${event.toolCalls.length} tool calls in one turn, run concurrently)\n`);
        break;
      case 'tool-call-start': {
        const where = event.server ? `${event.server}.${event.tool}` : event.name;
        write(`  → ${where} ${oneLine(JSON.stringify(event.arguments), 160)}\n`);
        break;
      }
      case 'tool-call-progress': {
        if (!showProgress) break;
        const now = performance.now();
        if (now - (lastProgress.get(event.callId) ?? -Infinity) < progressIntervalMs) break;
        lastProgress.set(event.callId, now);
        const where = event.server ? `${event.server}.${event.tool}` : event.name;
        write(`  ⋯ ${where} ${describeProgress(event)}\n`);
        break;
      }
      case 'tool-call-end': {
        lastProgress.delete(event.callId);
        const where = event.server ? `${event.server}.${event.tool}` : event.name;
        const mark = event.isError ? '✗' : '✓';
        if (resultLines === 0) {
          write(`  ${mark} ${where} (${seconds(event.durationMs)}) ${oneLine(event.text, 160)}\n`);
        } else {
          write(`  ${mark} ${where} (${seconds(event.durationMs)})\n${preview(event.text, resultLines)}`);
        }
        break;
      }
      case 'answer': {
        const ending = event.stoppedBy === 'answer' ? '' : ` (stopped: ${event.stoppedBy})`;
        write(
          `done in ${event.steps} step${event.steps === 1 ? '' : 's'}, ${seconds(event.durationMs)}, ` +
            `${event.usage.inputTokens} tokens in, ${event.usage.outputTokens} out${ending}\n`,
        );
        break;
      }
      default:
        break;
    }
  };
}
