import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNpmTool, npmInstallTimeoutMs } from '../../../scripts/tools/ensure-node22.mjs';
import { freePort } from '../../../scripts/tools/free-port.mjs';
import type { ServerConfig } from '../src/config/server-config.js';
import type { ToolProgress } from '../src/connection/tool-call.js';
import { connectHost } from '../src/host.js';
import { contentBlockParts } from '../src/loop/tool-content.js';
import { expandUriTemplate } from '../src/resources/uri-template.js';
import { type ProcessRun, runProcess, textOf } from './helpers.js';

// The host against servers nobody here wrote, installed from the npm registry at exact versions into the ignored
// .tools folder (decision 0421), next to our own three servers: the official "everything" and filesystem servers
// speak the 2025-11-25 era, ours the 2026-07-28 one, and one scripted run uses all five.
const everythingSpec = '@modelcontextprotocol/server-everything@2026.8.31';
const filesystemSpec = '@modelcontextprotocol/server-filesystem@2026.8.31';

const repository = fileURLToPath(new URL('../../..', import.meta.url));
const hostBin = join(repository, 'packages/agent-host/bin/mcpkit-host.js');
const ourServerBin = (name: string) => join(repository, 'servers', name, 'bin', `mcpkit-${name}.js`);
const ourServersBuilt = ['database', 'filesystem', 'search'].every((name) =>
  existsSync(join(repository, 'servers', name, 'dist', 'main.js')),
);

let directory = '';
let data = '';
let everythingBin = '';
let filesystemBin = '';

function stdio(command: string, args: string[]) {
  return { command: process.execPath, args: [command, ...args] };
}

function everythingServer(): ServerConfig {
  return {
    name: 'everything',
    transport: { kind: 'stdio', command: process.execPath, args: [everythingBin, 'stdio'], env: {} },
    tools: {},
    callTimeoutMs: 20_000,
    startupTimeoutMs: 20_000,
    disabled: false,
  };
}

// The first run installs both packages (some seconds), one after the other, each within the install time limit (300 s
// unless MCPKIT_NPM_INSTALL_TIMEOUT_MS says otherwise): the hook allows both, and a minute for the rest. Later runs
// find them in .tools.
beforeAll(
  () => {
    everythingBin = ensureNpmTool(everythingSpec).bins['mcp-server-everything'] ?? '';
    filesystemBin = ensureNpmTool(filesystemSpec).bins['mcp-server-filesystem'] ?? '';
    directory = mkdtempSync(join(tmpdir(), 'mcpkit-other-servers-'));
    data = join(directory, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'notes.txt'), 'The launch code word is heliotrope.\n');
  },
  2 * npmInstallTimeoutMs() + 60_000,
);

afterAll(() => {
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('@modelcontextprotocol/server-everything (2025-11-25 era)', () => {
  it('reports progress that keeps a call alive past its timeout, and answers sampling and elicitation', async () => {
    const forms: string[] = [];
    await using host = await connectHost(
      { servers: [everythingServer()] },
      {
        log: () => {},
        sample: async (request) => ({ text: `sampled: ${request.messages.at(-1)?.text ?? ''}`, model: 'scripted' }),
        elicit: async (request) => {
          forms.push(request.message);
          // A person takes longer than the call's timeout to fill in the form: that time is not the server's silence.
          await new Promise((resolve) => setTimeout(resolve, 2000));
          return { action: 'accept', content: { name: 'Ada Lovelace' } };
        },
      },
    );
    expect(host.failures).toEqual([]);
    expect(host.connection('everything')?.protocol?.era).toBe('legacy');

    // Four steps of 0.5 s each, with a 1.5 s timeout: only the progress notifications keep the call alive, and a
    // report may come 1 s late on a loaded machine (three steps against 1 s left 0.5 s).
    const progress: ToolProgress[] = [];
    const long = await host.call(
      'everything',
      'trigger-long-running-operation',
      { duration: 2, steps: 4 },
      { timeoutMs: 1500, onProgress: (update) => progress.push(update) },
    );
    expect(textOf(long)).toContain('Long running operation completed');
    // The last notification may race the result (the server sends both at once); the first two came while it ran.
    expect(progress.map((update) => [update.progress, update.total]).slice(0, 2)).toEqual([
      [1, 4],
      [2, 4],
    ]);

    const sampled = await host.call('everything', 'trigger-sampling-request', { prompt: 'Say hello' });
    expect(sampled.isError).not.toBe(true);
    expect(JSON.stringify(sampled.content)).toContain('sampled: ');

    const elicited = await host.call('everything', 'trigger-elicitation-request', {}, { timeoutMs: 1500 });
    expect(forms).toHaveLength(1);
    expect(textOf(elicited)).toContain('Ada Lovelace');
  });

  it('reads resource links, templates with values, and prompts with embedded resources', async () => {
    await using host = await connectHost({ servers: [everythingServer()] }, { log: () => {} });
    const connection = host.connection('everything');

    const linked = await host.call('everything', 'get-resource-links', { count: 2 });
    const links = linked.content.filter((block) => block.type === 'resource_link');
    expect(links.length).toBe(2);
    for (const link of links) {
      const read = await host.readResource(link.uri);
      expect(read.contents[0]?.uri).toBe(link.uri);
    }

    const template = connection?.resourceTemplates.find((entry) => entry.uriTemplate.includes('/text/{resourceId}'));
    expect(template).toBeDefined();
    const uri = expandUriTemplate(template?.uriTemplate ?? '', { resourceId: '3' });
    const read = await host.readResource(uri);
    expect(read.contents[0]).toMatchObject({ uri, text: expect.stringContaining('Resource 3:') });

    const prompt = await connection?.getPrompt('resource-prompt', { resourceType: 'Text', resourceId: '2' });
    const parts = contentBlockParts(prompt?.messages.map((message) => message.content) ?? []);
    expect(parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n')).toContain('Resource 2:');
  });
});

describe('@modelcontextprotocol/server-everything over HTTP (a 1.x SDK server)', () => {
  /** Starts the server with one of its HTTP transports on a free port; resolves once it listens. */
  async function listening(transport: 'streamableHttp' | 'sse'): Promise<{ port: number; child: ChildProcess }> {
    const port = await freePort();
    const child = spawn(process.execPath, [everythingBin, transport], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    while (!/listening on port|running on port/i.test(output)) {
      await Promise.race([once(child.stderr as NodeJS.ReadableStream, 'data'), once(child, 'exit')]);
      if (child.exitCode !== null) throw new Error(`server-everything ${transport} exited: ${output}`);
    }
    return { port, child };
  }

  it('falls back to the 2025-11-25 handshake over Streamable HTTP, and to the HTTP+SSE transport', async () => {
    const streamable = await listening('streamableHttp');
    const sse = await listening('sse');
    try {
      const http = (name: string, url: string): ServerConfig => ({
        ...everythingServer(),
        name,
        transport: { kind: 'http', url, headers: {}, mode: 'auto' },
      });
      await using host = await connectHost(
        {
          servers: [
            http('streamable', `http://127.0.0.1:${streamable.port}/mcp`),
            http('sse', `http://127.0.0.1:${sse.port}/sse`),
          ],
        },
        { log: () => {} },
      );
      expect(host.failures).toEqual([]);
      expect(host.connection('streamable')?.protocol).toEqual({
        era: 'legacy',
        version: '2025-11-25',
        transport: 'streamable-http',
      });
      expect(host.connection('sse')?.protocol).toEqual({ era: 'legacy', version: '2025-11-25', transport: 'sse' });
      expect(textOf(await host.call('streamable', 'echo', { message: 'over http' }))).toBe('Echo: over http');
      expect(textOf(await host.call('sse', 'echo', { message: 'over sse' }))).toBe('Echo: over sse');
    } finally {
      streamable.child.kill();
      sse.child.kill();
    }
  });
});

describe.skipIf(!ourServersBuilt)('one scripted run across five servers of both eras', () => {
  let run: (args: string[]) => Promise<ProcessRun>;

  beforeAll(() => {
    const sample = spawnSync(process.execPath, [ourServerBin('database'), 'sample', join(directory, 'shop.sqlite')]);
    expect(sample.status).toBe(0);
    writeFileSync(
      join(directory, 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          everything: stdio(everythingBin, ['stdio']),
          official: stdio(filesystemBin, [data]),
          db: stdio(ourServerBin('database'), [join(directory, 'shop.sqlite')]),
          files: stdio(ourServerBin('filesystem'), [data]),
          search: stdio(ourServerBin('search'), ['--no-watch', '--index-file', join(directory, 'index.sqlite'), data]),
        },
      }),
    );
    run = (args) => runProcess(process.execPath, [hostBin, ...args], { cwd: directory });
  });

  it('tools shows the era each server negotiated', async () => {
    const result = await run(['tools', '--json', '-q']);
    expect(result.code, result.stderr).toBe(0);
    const servers = JSON.parse(result.stdout) as Array<{ server: string; protocol: { era: string; version: string } }>;
    expect(Object.fromEntries(servers.map((server) => [server.server, server.protocol.version]))).toEqual({
      everything: '2025-11-25',
      official: '2025-11-25',
      db: '2026-07-28',
      files: '2026-07-28',
      search: '2026-07-28',
    });
  });

  it('calls a tool of every server in one turn and answers from all of them', async () => {
    writeFileSync(
      join(directory, 'script.json'),
      JSON.stringify({
        steps: [
          {
            toolCalls: [
              { name: 'everything__echo', arguments: { message: 'from everything' } },
              { name: 'official__read_text_file', arguments: { path: join(data, 'notes.txt') } },
              { name: 'db__query', arguments: { sql: 'SELECT count(*) AS users FROM users' } },
              { name: 'files__read_text_file', arguments: { path: 'notes.txt' } },
              { name: 'search__search', arguments: { query: 'heliotrope' } },
            ],
          },
          { text: 'Found:\n{{tool_results}}' },
        ],
      }),
    );
    const result = await run(['run', '--model', 'scripted:script.json', 'What do the servers hold?']);
    expect(result.code, result.stderr).toBe(0);
    for (const call of ['everything.echo', 'official.read_text_file', 'db.query', 'files.read_text_file']) {
      expect(result.stderr).toMatch(new RegExp(`✓ ${call.replace('.', '\\.')} \\(`));
    }
    expect(result.stderr).toMatch(/✓ search\.search \(/);
    expect(result.stdout).toContain('from everything');
    expect(result.stdout.match(/heliotrope/g)?.length).toBeGreaterThanOrEqual(3);
    expect(result.stdout).toContain('| 8 |');
  });
});
