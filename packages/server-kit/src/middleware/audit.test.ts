import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer } from '../create-server.js';
import { defineTool } from '../define-tool.js';
import { ToolError } from '../errors.js';
import { connectTestClient, protocolEras } from '../testing/index.js';
import { type AuditRecord, audit } from './audit.js';

const login = defineTool({
  name: 'login',
  description: 'Logs in to a service.',
  input: z.object({
    user: z.string(),
    pin: z.string().meta({ writeOnly: true }),
    api_key: z.string().optional(),
    note: z.string().optional(),
  }),
  handler: ({ user }) => {
    if (user === 'nobody') throw new ToolError('No such user.');
    return `hello ${user}`;
  },
});

describe.each(protocolEras)('audit (%s)', (era) => {
  it('writes one JSON line per call: who, what with secrets redacted, outcome, duration', async () => {
    const lines: string[] = [];
    const server = createServer({
      name: 'audited',
      version: '1',
      tools: [login],
      middleware: [audit({ sink: (line) => lines.push(line) })],
    });
    await using client = await connectTestClient(server, { era });
    await client.client.listTools();
    await client.callTool('login', { user: 'ada', pin: '9999', api_key: 'sk-live-123', note: 'n'.repeat(500) });
    await client.callTool('login', { user: 'nobody', pin: '0000' });
    await expect(client.callTool('logout', { token: 'abc' })).rejects.toMatchObject({ code: -32602 });

    expect(lines).toHaveLength(3); // tools/list is not audited by default
    const text = lines.join('\n');
    for (const secret of ['9999', '0000', 'sk-live-123', 'abc']) expect(text).not.toContain(secret);
    const records = lines.map((line) => JSON.parse(line) as AuditRecord);
    expect(records[0]).toMatchObject({
      method: 'tools/call',
      target: 'login',
      caller: {
        key: era === '2025-11-25' ? expect.stringMatching(/^connection:/) : 'anonymous',
        client: expect.any(String),
      },
      arguments: {
        user: 'ada',
        pin: '[redacted]',
        api_key: '[redacted]',
        note: expect.stringContaining('(500 characters)'),
      },
      outcome: 'ok',
    });
    expect(records[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(records[0]?.time ?? '')).not.toBeNaN();
    expect(records[1]).toMatchObject({
      target: 'login',
      outcome: 'tool-error',
      arguments: { user: 'nobody', pin: '[redacted]' },
    });
    expect(records[2]).toMatchObject({
      target: 'logout',
      outcome: 'error',
      code: -32602,
      arguments: { token: '[redacted]' },
    });
  });

  it('redacts what isSecret names, and a failing sink does not fail the call', async () => {
    const lines: string[] = [];
    const server = createServer({
      name: 'audited',
      version: '1',
      tools: [login],
      middleware: [
        audit({ sink: (line) => lines.push(line), isSecret: (path) => path.join('.') === 'note' }),
        audit({
          sink: () => {
            throw new Error('disk full');
          },
        }),
      ],
    });
    await using client = await connectTestClient(server, { era });
    expect(await client.callToolText('login', { user: 'ada', pin: '1', note: 'private' })).toBe('hello ada');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ arguments: { note: '[redacted]' } });
  });
});
