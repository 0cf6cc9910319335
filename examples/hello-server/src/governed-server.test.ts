import { connectTestClient, resultText } from '@mcpkit/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { createGovernedServer } from './governed-server.js';

// #region test-middleware
describe('governed server', () => {
  it('audits every call with its secrets redacted, limits invitations, and can pause', async () => {
    const lines: string[] = [];
    let paused = false;
    const { server, timer } = createGovernedServer({ auditLine: (line) => lines.push(line), paused: () => paused });
    await using client = await connectTestClient(server);

    const invite = { email: 'ada@example.com', inviteCode: 'XK-2231' };
    for (let sent = 0; sent < 3; sent++)
      expect(await client.callToolText('send_invite', invite)).toMatch(/^Invitation sent/);
    expect(await client.callToolText('send_invite', invite)).toMatch(
      /^Too many requests: the limit is 3 calls a minute per caller\. Try again in \d+ seconds\.$/,
    );

    paused = true;
    expect(resultText(await client.callTool('greet', { name: 'Ada' }))).toMatch(/paused for maintenance/);

    expect(lines).toHaveLength(5);
    expect(lines.join('\n')).not.toContain('XK-2231');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      method: 'tools/call',
      target: 'send_invite',
      arguments: { email: 'ada@example.com', inviteCode: '[redacted]' },
      outcome: 'ok',
    });
    expect(timer.snapshot().find((stats) => stats.target === 'send_invite')?.count).toBe(4);
  });
});
// #endregion test-middleware
