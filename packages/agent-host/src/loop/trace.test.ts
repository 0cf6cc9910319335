import { describe, expect, it } from 'vitest';
import { traceListener } from './trace.js';

const end = {
  type: 'tool-call-end' as const,
  step: 1,
  callId: 'a',
  name: 'db__query',
  server: 'db',
  tool: 'query',
  durationMs: 12,
  isError: false,
  content: [],
  text: 'row 1\nrow 2\nrow 3',
};

describe('traceListener', () => {
  it('shows progress as lines, at most one a second per call, unless told not to', () => {
    let out = '';
    const progress = { type: 'tool-call-progress' as const, step: 1, callId: 'a', name: 'db__query', progress: 1 };
    const listener = traceListener((text) => {
      out += text;
    });
    listener({ ...progress, server: 'db', tool: 'query', total: 3, message: 'reading' });
    listener({ ...progress, progress: 2 });
    expect(out).toBe('  ⋯ db.query 1/3 reading\n');
    out = '';
    traceListener(
      (text) => {
        out += text;
      },
      { progress: false },
    )(progress);
    expect(out).toBe('');
  });

  it('folds a result onto the call line by default', () => {
    let out = '';
    traceListener((text) => {
      out += text;
    })(end);
    expect(out).toBe('  ✓ db.query (12 ms) row 1 row 2 row 3\n');
  });

  it('shows the first lines of a result under the call when asked, and notes concurrent calls', () => {
    let out = '';
    const listener = traceListener(
      (text) => {
        out += text;
      },
      { resultLines: 2 },
    );
    listener({
      type: 'model-response',
      step: 1,
      text: '',
      toolCalls: [
        { id: 'a', name: 'x', arguments: {} },
        { id: 'b', name: 'y', arguments: {} },
      ],
      usage: { inputTokens: 0, outputTokens: 0 },
      durationMs: 1,
    });
    listener(end);
    expect(out).toBe(
      '  (2 tool calls in one turn, run concurrently)\n  ✓ db.query (12 ms)\n      row 1\n      row 2\n      … 1 more line\n',
    );
  });
});
