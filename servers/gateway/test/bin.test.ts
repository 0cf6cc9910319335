import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';

// mcpkit-gateway as a process over stdio: a config file in, one MCP server out, nothing but JSON-RPC on stdout.
const bin = fileURLToPath(new URL('../bin/mcpkit-gateway.js', import.meta.url));
const flaky = fileURLToPath(new URL('./fixtures/flaky-server.mjs', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'mcpkit-gateway-bin-'));

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('mcpkit-gateway over stdio', () => {
  it('serves a config’s servers with the audit and rate-limit flags', async () => {
    const config = join(directory, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { one: { command: process.execPath, args: [flaky] } } }));
    await using client = await spawnTestClient({
      command: process.execPath,
      args: [bin, '--audit', '--rate-limit', '1', config],
    });
    // Sent together, so that both reach the gateway within the same second however slow the round trip to the
    // backend is on a loaded machine (one after the other, the second had to come within 1 s of the first).
    const answers = await Promise.all([0, 1].map(() => client.callToolText('one__echo', { text: 'hi' })));
    expect(answers.filter((answer) => answer === 'hi')).toHaveLength(1);
    expect(answers.find((answer) => answer !== 'hi')).toMatch(/^Too many calls to the tool "one__echo"/);
    await expect.poll(() => client.stderr()).toContain('"target":"one__echo"');
  });
});
