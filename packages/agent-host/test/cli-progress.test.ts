import { describe, expect, it } from 'vitest';
import { cli, echoServer, workspace } from './cli-helpers.js';

// Progress every 300 ms against a 1.5 s timeout: 1.2 s to spare between two reports on a loaded machine (it was
// 700 ms, 400 ms to spare), and six steps (1.8 s at least) still outlast the timeout.
const timeout = ['--timeout', '1500'];

function progressWorkspace(): string {
  return workspace(
    { mcpServers: { alpha: echoServer('alpha') } },
    {
      steps: [
        { toolCalls: [{ name: 'alpha__count_slowly', arguments: { steps: 6, intervalMs: 300 } }] },
        { text: 'Got: {{tool_results}}' },
      ],
    },
  );
}

describe('mcpkit-host shows progress and lets a progressing call outlive its timeout', () => {
  it('call: progress lines on stderr, the result on stdout, a silent call still ends at the timeout', async () => {
    const cwd = progressWorkspace();
    const called = await cli(['call', 'alpha', 'count_slowly', '{"steps":6,"intervalMs":300}', ...timeout], { cwd });
    expect(called.stdout).toBe('done after 6 steps\n');
    expect(called.code).toBe(0);
    expect(called.stderr).toContain('⋯ alpha.count_slowly 1/6 step 1\n');
    const silent = await cli(['call', 'alpha', 'slow', '{"ms":5000}', ...timeout], { cwd });
    expect(silent.stdout).toBe('Tool "slow" of server "alpha" did not answer within 1500 ms.\n');
  });

  it('run: progress lines in the trace', async () => {
    const ran = await cli(['run', '-m', 'scripted:script.json', 'Work.', ...timeout], { cwd: progressWorkspace() });
    expect(ran.stdout).toBe('Got: done after 6 steps\n');
    expect(ran.stderr).toContain('  ⋯ alpha.count_slowly 1/6 step 1\n');
  });
});
