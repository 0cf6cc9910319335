import type { AgentEvent } from '@mcpkit/agent-host';

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function duration(milliseconds: number): string {
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`.trimEnd())
    .join('\n');
}

/** The first lines of a tool result, enough to see what came back. */
function preview(text: string, lines: number): string {
  const all = text.trim().split('\n');
  const shown = all.slice(0, lines).map((line) => oneLine(line, 110));
  if (all.length > lines) shown.push(`… ${all.length - lines} more line${all.length - lines === 1 ? '' : 's'}`);
  return shown.join('\n');
}

/** Turns the loop's events into the demo's readable trace: steps, tool calls with arguments, durations, results. */
export function presentEvent(event: AgentEvent, write: (text: string) => void): void {
  switch (event.type) {
    case 'step-start':
      write(`  step ${event.step}\n`);
      break;
    case 'model-response':
      if (event.toolCalls.length > 0 && event.text.trim()) write(`    model: ${oneLine(event.text, 140)}\n`);
      if (event.toolCalls.length > 1)
        write(`    (${event.toolCalls.length} tool calls in one turn, run concurrently)\n`);
      break;
    case 'tool-call-start': {
      const where = event.server ? `${event.server}.${event.tool}` : event.name;
      write(`    → ${where} ${oneLine(JSON.stringify(event.arguments), 140)}\n`);
      break;
    }
    case 'tool-call-end': {
      const where = event.server ? `${event.server}.${event.tool}` : event.name;
      write(`    ${event.isError ? '✗ error from' : '✓'} ${where} in ${duration(event.durationMs)}\n`);
      write(`${indent(preview(event.text, event.isError ? 3 : 6), '        ')}\n`);
      break;
    }
    case 'answer':
      write(`  answer (${event.steps} step${event.steps === 1 ? '' : 's'}, ${duration(event.durationMs)}):\n`);
      write(`${indent(event.text.trim(), '    ')}\n\n`);
      break;
    default:
      break;
  }
}
