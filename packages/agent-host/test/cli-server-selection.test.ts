import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, echoServer, markerServer, workspace } from './cli-helpers.js';

describe('mcpkit-host starts only the servers a command names', () => {
  it('call SERVER TOOL and tools --server NAME start that server alone', async () => {
    const cwd = workspace({});
    const marker = join(cwd, 'other-started');
    const config = {
      mcpServers: { alpha: echoServer('alpha'), other: markerServer(marker), off: { command: 'x', disabled: true } },
    };
    const configured = workspace(config);
    const call = await cli(['call', 'alpha', 'echo', '{"text":"hi"}'], { cwd: configured });
    expect(call).toMatchObject({ code: 0, stdout: 'alpha: hi\n' });
    const tools = await cli(['tools', '--server', 'alpha', '--json'], { cwd: configured });
    expect(tools.code, tools.stderr).toBe(0);
    expect(JSON.parse(tools.stdout).map((server: { server: string }) => server.server)).toEqual(['alpha']);
    expect(existsSync(marker)).toBe(false);
    // An unknown name starts nothing and lists the servers the config has, not the disabled ones.
    const unknown = await cli(['call', 'nope', 'echo'], { cwd: configured });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/mcp\.json has no server "nope" \(its servers: alpha, other\)\.\n$/);
    const disabled = await cli(['tools', '--server', 'off'], { cwd: configured });
    expect(disabled.stderr).toMatch(/Server "off" is disabled in .*mcp\.json \("disabled": true\)\./);
    expect(existsSync(marker)).toBe(false);
  });
});
