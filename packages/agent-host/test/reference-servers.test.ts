import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProcessRun, runProcess } from './helpers.js';

// End-to-end: the built mcpkit-host runs a scripted model against the three reference servers, each started from its
// bin. Skipped when a server is not built (its package is built by its own pipeline).
const repository = fileURLToPath(new URL('../../..', import.meta.url));
const hostBin = join(repository, 'packages/agent-host/bin/mcpkit-host.js');
const serverBin = (name: string) => join(repository, 'servers', name, 'bin', `mcpkit-${name}.js`);
const built = ['database', 'filesystem', 'search'].every((name) =>
  existsSync(join(repository, 'servers', name, 'dist', 'main.js')),
);

let directory = '';

function run(args: string[]): Promise<ProcessRun> {
  return runProcess(process.execPath, [hostBin, ...args], { cwd: directory });
}

describe.skipIf(!built)('mcpkit-host run against the reference servers', () => {
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'mcpkit-host-e2e-'));
    const data = join(directory, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'notes.txt'), 'The launch code word is heliotrope.\n');
    const sample = spawnSync(process.execPath, [serverBin('database'), 'sample', join(directory, 'shop.sqlite')]);
    expect(sample.status).toBe(0);
    writeFileSync(
      join(directory, 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          db: { command: process.execPath, args: [serverBin('database'), join(directory, 'shop.sqlite')] },
          files: { command: process.execPath, args: [serverBin('filesystem'), data] },
          search: {
            command: process.execPath,
            args: [serverBin('search'), '--no-watch', '--index-file', join(directory, 'index.sqlite'), data],
          },
        },
      }),
    );
  });

  afterAll(() => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it.each(['openai', 'anthropic'])('answers from all three servers in one turn (%s wire format)', async (provider) => {
    writeFileSync(
      join(directory, 'script.json'),
      JSON.stringify({
        provider,
        steps: [
          {
            text: 'Looking in the database, the files and the index.',
            toolCalls: [
              { name: 'db__query', arguments: { sql: 'SELECT count(*) AS users FROM users' } },
              { name: 'files__read_text_file', arguments: { path: 'notes.txt' } },
              { name: 'search__search', arguments: { query: 'heliotrope' } },
            ],
          },
          { text: 'Here is what I found:\n{{tool_results}}' },
        ],
      }),
    );
    const result = await run(['run', '--model', 'scripted:script.json', 'What do the servers hold?']);
    expect(result.code, result.stderr).toBe(0);
    // A call past a second is shown in seconds (1.2 s), which a loaded machine reaches.
    expect(result.stderr).toMatch(/✓ db\.query \((\d+ ms|\d+\.\d s)\)/);
    expect(result.stderr).toMatch(
      /✓ files\.read_text_file \((\d+ ms|\d+\.\d s)\) The launch code word is heliotrope\./,
    );
    expect(result.stderr).toMatch(/✓ search\.search \((\d+ ms|\d+\.\d s)\)/);
    expect(result.stdout).toMatch(/^Here is what I found:\n/);
    expect(result.stdout).toContain('| 8 |');
    expect(result.stdout).toContain('The launch code word is heliotrope.');
    expect(result.stdout).toMatch(/notes\.txt/);
  });

  it('gives the model the refusal of a path outside the allowed directories, and the run goes on', async () => {
    writeFileSync(
      join(directory, 'script.json'),
      JSON.stringify({
        steps: [
          { toolCalls: [{ name: 'files__read_text_file', arguments: { path: '/etc/passwd' } }] },
          { text: 'Refused: {{tool_results}}' },
        ],
      }),
    );
    const result = await run(['run', '-m', 'scripted:script.json', 'Read /etc/passwd.']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/✗ files\.read_text_file/);
    expect(result.stdout).toMatch(/^Refused: Access denied: \/etc\/passwd is outside the allowed directories/);
  });

  it('tools lists all three servers', async () => {
    const result = await run(['tools', '--json', '-q']);
    expect(result.code).toBe(0);
    const servers = JSON.parse(result.stdout) as Array<{ server: string; state: string; tools: unknown[] }>;
    expect(servers.map((server) => [server.server, server.state])).toEqual([
      ['db', 'ready'],
      ['files', 'ready'],
      ['search', 'ready'],
    ]);
    for (const server of servers) expect(server.tools.length).toBeGreaterThan(0);
  });
});
