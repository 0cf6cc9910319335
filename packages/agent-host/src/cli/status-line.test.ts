import { describe, expect, it } from 'vitest';
import { StatusLine } from './status-line.js';

const progress = {
  type: 'tool-call-progress' as const,
  step: 1,
  callId: 'a',
  name: 'files__index',
  server: 'files',
  tool: 'index',
  progress: 1,
  total: 4,
  message: 'scanning',
};

describe('StatusLine', () => {
  it('rewrites one line in place on a terminal and clears it before other output', () => {
    const written: string[] = [];
    const line = new StatusLine((text) => written.push(text), true);
    line.progress('⋯ files.index', { progress: 1, total: 4, message: 'scanning' });
    line.progress('⋯ files.index', { progress: 2, total: 4 });
    line.print('done\n');
    line.clear();
    expect(written).toEqual(['\r\x1b[K⋯ files.index 1/4 scanning', '\r\x1b[K⋯ files.index 2/4', '\r\x1b[K', 'done\n']);
  });

  it('writes plain lines, at most one a second per call, without a terminal', () => {
    const written: string[] = [];
    const line = new StatusLine((text) => written.push(text), false);
    line.progress('⋯ a', { progress: 1 });
    line.progress('⋯ a', { progress: 2 });
    line.progress('⋯ b', { progress: 1 });
    expect(written).toEqual(['⋯ a 1\n', '⋯ b 1\n']);
  });

  it('shows a run trace with its progress on the line', () => {
    const written: string[] = [];
    const listener = new StatusLine((text) => written.push(text), true).traceListener();
    listener({ type: 'step-start', step: 1 });
    listener(progress);
    listener({ type: 'step-start', step: 2 });
    expect(written).toEqual(['step 1\n', '\r\x1b[K  ⋯ files.index 1/4 scanning', '\r\x1b[K', 'step 2\n']);
  });
});
