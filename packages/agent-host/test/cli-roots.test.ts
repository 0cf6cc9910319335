// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs spell ${workspaceFolder} literally.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, echoServer, workspace } from './cli-helpers.js';

describe('mcpkit-host offers roots only when the user gives them', () => {
  it('offers none by default (no roots capability), and the --root directories when given', async () => {
    const bare = workspace({ mcpServers: { alpha: echoServer('alpha') } });
    const none = await cli(['call', 'alpha', 'list_roots'], { cwd: bare });
    // The server sees no roots capability, so it keeps the directories its own arguments give it.
    expect(none).toMatchObject({ code: 0, stdout: 'null\n' });
    const flagged = await cli(['call', 'alpha', 'list_roots', '--root', bare, '--root', join(bare, 'b')], {
      cwd: bare,
    });
    expect(JSON.parse(flagged.stdout)).toEqual([pathToFileURL(bare).href, pathToFileURL(join(bare, 'b')).href]);
  });

  it('offers the config roots, per server or from the top level, and tools says which', async () => {
    const cwd = realpathSync(
      workspace({
        roots: ['data'],
        mcpServers: {
          alpha: echoServer('alpha'),
          beta: { ...echoServer('beta'), roots: ['${workspaceFolder}/other'] },
        },
      }),
    );
    const tools = await cli(['tools', '--json'], { cwd });
    expect(tools.code, tools.stderr).toBe(0);
    expect(JSON.parse(tools.stdout).map((server: { roots: string[] }) => server.roots)).toEqual([
      [join(cwd, 'data')],
      [join(cwd, 'other')],
    ]);
    const listed = await cli(['tools', '--server', 'alpha', '--root', '/tmp'], { cwd });
    expect(listed.stdout).toMatch(
      /^alpha \(ready, \d+ tools, protocol 2026-07-28 \(modern\) over stdio, roots: \/tmp\)\n/,
    );
  });
});
