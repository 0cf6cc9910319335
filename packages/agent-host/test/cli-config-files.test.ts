// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs spell ${...} references literally.
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, echoServer, workspace } from './cli-helpers.js';
import { fixturePath } from './helpers.js';

const echoScript = JSON.stringify(fixturePath('echo-server.mjs'));
const node = JSON.stringify(process.execPath);

describe('mcpkit-host reads the config files editors write', () => {
  it("finds Cursor's .cursor/mcp.json and Claude Code's .mcp.json, JSONC with comments and trailing commas", async () => {
    const cursor = workspace(
      `{
  // Cursor's project config
  "mcpServers": {
    "cur": { "command": ${node}, "args": [${echoScript}, "\${workspaceFolderBasename}",], },
  },
}`,
      undefined,
      join('.cursor', 'mcp.json'),
    );
    const called = await cli(['call', 'cur', 'echo', '{"text":"x"}'], { cwd: cursor });
    expect(called).toMatchObject({ code: 0, stdout: `${basename(cursor)}: x\n` });
    const claudeCode = workspace({ mcpServers: { cc: echoServer('cc') } }, undefined, '.mcp.json');
    const listed = await cli(['tools'], { cwd: claudeCode });
    expect(listed.stdout).toMatch(/^cc \(ready, /);
  });

  it('names the file, line and column of a JSONC syntax error', async () => {
    const cwd = workspace('{\n  "servers": {}\n  "inputs": []\n}\n', undefined, join('.vscode', 'mcp.json'));
    const result = await cli(['tools'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\.vscode\/mcp\.json:3:3: is not valid JSON: comma expected\.\n$/);
  });

  const inputsWorkspace = () =>
    workspace(
      {
        inputs: [{ type: 'promptString', id: 'who', description: 'Name of the echo server', password: true }],
        servers: {
          alpha: { type: 'stdio', ...echoServer('alpha') },
          gamma: { type: 'stdio', command: process.execPath, args: [fixturePath('echo-server.mjs'), '${input:who}'] },
          delta: { type: 'stdio', command: '${env:MCPKIT_TEST_NEVER_SET}' },
        },
      },
      undefined,
      join('.vscode', 'mcp.json'),
    );

  it('leaves out only the server whose input has no value or whose variable is unset, and says so', async () => {
    const cwd = inputsWorkspace();
    const tools = await cli(['tools', '--json'], { cwd });
    expect(tools.code).toBe(1);
    expect(JSON.parse(tools.stdout).map((server: { state: string }) => server.state)).toEqual([
      'ready',
      'not started',
      'not started',
    ]);
    expect(tools.stderr).toContain(
      'server "gamma": input "who" (Name of the echo server) needs a value: set MCPKIT_INPUT_WHO, pass --input who=VALUE',
    );
    expect(tools.stderr).toContain(
      'server "delta": field "command": environment variable MCPKIT_TEST_NEVER_SET is not set. Server "delta" is not started.',
    );
    const named = await cli(['call', 'delta', 'anything'], { cwd });
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(
      /environment variable MCPKIT_TEST_NEVER_SET is not set\. Server "delta" is not started/,
    );
  });

  it('takes input values from --input or MCPKIT_INPUT_<ID>', async () => {
    const cwd = inputsWorkspace();
    const flagged = await cli(['call', 'gamma', 'echo', '{"text":"hi"}', '--input', 'who=epsilon'], { cwd });
    expect(flagged).toMatchObject({ code: 0, stdout: 'epsilon: hi\n' });
    const fromEnvironment = await cli(['call', 'gamma', 'echo', '{"text":"hi"}'], {
      cwd,
      env: { MCPKIT_INPUT_WHO: 'zeta' },
    });
    expect(fromEnvironment).toMatchObject({ code: 0, stdout: 'zeta: hi\n' });
  });

  it('says so when the config has no servers', async () => {
    const cwd = workspace({ mcpServers: {} });
    const result = await cli(['tools'], { cwd });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toMatch(/mcp\.json lists no servers; add some under "mcpServers"/);
  });
});
