import type { AgentListener } from '../loop/agent-events.js';

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A readable trace of a run, one line per event worth seeing: steps, tool calls with durations, the totals. */
export function traceListener(write: (text: string) => void): AgentListener {
  return (event) => {
    switch (event.type) {
      case 'step-start':
        write(`step ${event.step}\n`);
        break;
      case 'model-response':
        if (event.toolCalls.length > 0 && event.text.trim()) write(`  model: ${oneLine(event.text, 160)}\n`);
        break;
      case 'tool-call-start': {
        const where = event.server ? `${event.server}.${event.tool}` : event.name;
        write(`  → ${where} ${oneLine(JSON.stringify(event.arguments), 160)}\n`);
        break;
      }
      case 'tool-call-end': {
        const where = event.server ? `${event.server}.${event.tool}` : event.name;
        const mark = event.isError ? '✗' : '✓';
        write(`  ${mark} ${where} (${seconds(event.durationMs)}) ${oneLine(event.text, 160)}\n`);
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
