// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs spell ${input:...} references literally.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, cli, echoServer, workspace } from './cli-helpers.js';
import { fixturePath, isAlive } from './helpers.js';

const twoServers = { mcpServers: { alpha: echoServer('alpha'), beta: echoServer('beta') } };
const script = {
  steps: [
    {
      text: 'Asking both.',
      toolCalls: [
        { name: 'alpha__echo', arguments: { text: 'one' } },
        { name: 'beta__echo', arguments: { text: 'two' } },
      ],
    },
    { text: 'They said: {{tool_results}}' },
  ],
};

describe('mcpkit-host', () => {
  it('run: the answer on stdout, a trace of tool calls on stderr', async () => {
    const cwd = workspace(twoServers, script);
    const result = await cli(['run', '--model', 'scripted:script.json', 'Ask both servers.'], { cwd });
    expect(result.stderr).toContain('→ alpha.echo {"text":"one"}');
    expect(result.stderr).toMatch(/✓ beta\.echo \(\d+ ms\) beta: two/);
    expect(result.stderr).toMatch(/done in 2 steps/);
    expect(result.stdout).toBe('They said: alpha: one\nbeta: two\n');
    expect(result.code).toBe(0);
  });

  it('run reads the question from stdin when none is given, and refuses an empty one', async () => {
    const cwd = workspace(twoServers, { steps: [{ text: 'You asked: {{user_message}}' }] });
    const piped = await cli(['run', '-m', 'scripted:script.json', '-q'], { cwd, input: 'What is piped?\n' });
    expect(piped).toMatchObject({ code: 0, stdout: 'You asked: What is piped?\n' });
    const empty = await cli(['run', '-m', 'scripted:script.json'], { cwd, input: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/run needs a question/);
  });

  it('run --json prints the whole transcript, with the Anthropic wire format', async () => {
    const cwd = workspace(twoServers, { ...script, provider: 'anthropic' });
    const result = await cli(['run', '--json', '-m', 'scripted:script.json', 'Ask both servers.'], { cwd });
    expect(result.code).toBe(0);
    const transcript = JSON.parse(result.stdout);
    expect(transcript).toMatchObject({ answer: 'They said: alpha: one\nbeta: two', stoppedBy: 'answer', steps: 2 });
    expect(transcript.messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('tools: lists tools grouped by server, and a VS Code config is found by default', async () => {
    const cwd = workspace(
      { servers: { gamma: { type: 'stdio', ...echoServer('gamma') } } },
      undefined,
      join('.vscode', 'mcp.json'),
    );
    const result = await cli(['tools'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^gamma \(ready, \d+ tools, protocol 2026-07-28 \(modern\) over stdio, roots: none\)\n {2}gamma__echo +Returns the text it is given\./,
    );
  });

  it('tools: a server that fails to start is listed as failed, the others still listed, exit code 1', async () => {
    const cwd = workspace({
      mcpServers: {
        alpha: echoServer('alpha'),
        broken: { command: process.execPath, args: [fixturePath('crashing-server.mjs')] },
      },
    });
    const result = await cli(['tools', '--json'], { cwd });
    expect(result.code).toBe(1);
    const servers = JSON.parse(result.stdout);
    expect(servers[0]).toMatchObject({
      server: 'alpha',
      state: 'ready',
      protocol: { era: 'modern', version: '2026-07-28', transport: 'stdio' },
    });
    expect(result.stderr).toContain('[alpha] connected: protocol 2026-07-28 (modern) over stdio');
    expect(servers[1]).toMatchObject({
      server: 'broken',
      state: 'failed',
      error: expect.stringContaining('exited with code 1'),
    });
    expect(result.stderr).toContain('[broken] fatal: cannot open database');
  });

  it('call: calls a tool without a model; an error result exits 1, bad JSON exits 2', async () => {
    const cwd = workspace(twoServers);
    const ok = await cli(['call', 'beta', 'echo', '{"text":"direct"}'], { cwd });
    expect(ok).toMatchObject({ code: 0, stdout: 'beta: direct\n' });
    const failed = await cli(['call', 'beta', 'fail'], { cwd });
    expect(failed).toMatchObject({ code: 1, stdout: 'This tool always fails.\n' });
    // The server's sentence, with no "MCP error -32602:" prefix doubled (the 1.x SDK added one on each side).
    const missing = await cli(['call', 'beta', 'no_such_tool'], { cwd });
    expect(missing).toMatchObject({
      code: 1,
      stdout: 'Tool "no_such_tool" of server "beta" failed: Unknown tool: no_such_tool\n',
    });
    const bad = await cli(['call', 'beta', 'echo', '{text:'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/must be a JSON object/);
    const unknown = await cli(['call', 'nope', 'echo'], { cwd });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/mcp\.json has no server "nope" \(its servers: alpha, beta\)\./);
  });

  it('says how to configure a model when none is, and names file, server and field of a bad config', async () => {
    const cwd = workspace(twoServers);
    const noModel = await cli(['run', 'hello'], { cwd });
    expect(noModel.code).toBe(1);
    expect(noModel.stderr).toMatch(/No model configured\. Pass --model openai:MODEL/);
    const badConfig = workspace({ mcpServers: { db: { command: 'x', args: 'oops' } } });
    const bad = await cli(['tools'], { cwd: badConfig });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/mcp\.json: server "db": field "args": /);
    const missing = await cli(['tools', '--config', 'nope.json'], { cwd });
    expect(missing.stderr).toMatch(/Config file .*nope\.json does not exist/);
  });

  it('refuses a bad flag or command with exit code 2', async () => {
    const cwd = workspace(twoServers);
    expect((await cli(['--bogus'], { cwd })).code).toBe(2);
    expect((await cli(['frobnicate'], { cwd })).code).toBe(2);
    expect((await cli(['run', '--max-steps', 'zero', 'x'], { cwd })).stderr).toMatch(/--max-steps takes a positive/);
    const help = (await cli(['--help'], { cwd })).stdout;
    expect(help).toMatch(/^mcpkit-host: connect MCP servers/);
    // Every command is listed, web too (it reads its own command line, so its help is apart).
    for (const command of ['run', 'chat', 'web', 'tools', 'call', 'auth', 'conformance-client', 'install']) {
      expect(help).toMatch(new RegExp(`^  mcpkit-host ${command}\\b`, 'm'));
    }
  });

  it('chat: answers each line and runs slash commands', async () => {
    const cwd = workspace(twoServers, { steps: [{ text: 'Hello there.' }, { text: 'Second answer.' }] });
    const result = await cli(['chat', '-m', 'scripted:script.json', '-q'], {
      cwd,
      input: 'hi\n/tools\nagain\n/exit\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Hello there.\n');
    expect(result.stdout).toContain('alpha__echo  Returns the text it is given.');
    expect(result.stdout).toContain('Second answer.\n');
  });
});

describe('mcpkit-host chat', () => {
  it('lists prompts and resources, sends a prompt, and attaches a resource to the next message', async () => {
    const cwd = workspace(
      { mcpServers: { alpha: echoServer('alpha') } },
      { steps: [{ text: 'Got: {{user_message}}' }, { text: 'Then: {{user_message}}' }] },
    );
    const result = await cli(['chat', '-m', 'scripted:script.json', '-q'], {
      cwd,
      input:
        '/prompts\n/resources\n/prompt review\n/prompt review topic=the-plan\n/attach note://readme\nsummarize it\n/exit\n',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Invalid arguments for prompt "review": topic:');
    expect(result.stderr).not.toContain('MCP error -32602: MCP error');
    expect(result.stdout).toContain('alpha/review topic=…  Asks for a review of a topic.');
    expect(result.stdout).toContain('note://readme  readme (alpha)');
    expect(result.stdout).toContain('Got: Please review the-plan.\n');
    expect(result.stdout).toContain('Then: Attached note://readme:\nThe readme says hello.\nsummarize it\n');
  });
});

describe('mcpkit-host chat asks the person at the terminal', () => {
  it('fills in a server form field by field, and asks before a server may use the model', async () => {
    const cwd = workspace(
      { mcpServers: { alpha: echoServer('alpha') } },
      {
        steps: [
          { toolCalls: [{ name: 'alpha__ask_user' }] },
          { text: 'Form: {{tool_results}}' },
          { toolCalls: [{ name: 'alpha__summarize', arguments: { text: 'a long story' } }] },
          { text: 'short' },
          { text: 'Sampled: {{tool_results}}' },
        ],
      },
    );
    const result = await cli(['chat', '-m', 'scripted:script.json', '-q'], {
      cwd,
      input: 'who am I?\nAda\ny\nsummarize\ny\n/exit\n',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('[alpha] asks: What is your name?');
    expect(result.stderr).toContain('name (string, required): ');
    expect(result.stderr).toMatch(/\[alpha\] wants to use the model \(up to 100 tokens\): Summarize: a long story/);
    expect(result.stdout).toContain('Form: hello Ada\n');
    expect(result.stdout).toContain('Sampled: summary: short\n');
  });
});

describe('mcpkit-host and VS Code inputs', () => {
  it('asks chat users for the inputs a server uses, and tells one-shot commands without a terminal what is missing', async () => {
    const config = {
      inputs: [{ type: 'promptString', id: 'who', description: 'Name of the echo server' }],
      servers: {
        gamma: { type: 'stdio', command: process.execPath, args: [fixturePath('echo-server.mjs'), '${input:who}'] },
      },
    };
    const cwd = workspace(
      config,
      { steps: [{ toolCalls: [{ name: 'gamma__echo', arguments: { text: 'hi' } }] }, { text: '{{tool_results}}' }] },
      join('.vscode', 'mcp.json'),
    );
    const chat = await cli(['chat', '-m', 'scripted:script.json', '-q'], { cwd, input: 'delta\nsay hi\n/exit\n' });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stderr).toContain('Name of the echo server: ');
    expect(chat.stdout).toContain('delta: hi\n');
    const tools = await cli(['tools'], { cwd });
    expect(tools.code).toBe(1);
    expect(tools.stderr).toMatch(/input "who" \(Name of the echo server\) needs a value: set MCPKIT_INPUT_WHO/);
  });
});

describe('mcpkit-host and signals', () => {
  it('ends the process groups of the servers it started when it is terminated', async () => {
    const cwd = workspace({});
    const pidFile = join(cwd, 'server.pid');
    writeFileSync(
      join(cwd, 'mcp.json'),
      JSON.stringify({ mcpServers: { alpha: { ...echoServer('alpha'), env: { FIXTURE_PID_FILE: pidFile } } } }),
    );
    const child = spawn(process.execPath, [bin, 'call', 'alpha', 'slow', '{"ms":60000}'], { cwd, stdio: 'ignore' });
    const closed = new Promise((resolve) => child.once('close', (code, signal) => resolve(code ?? signal)));
    await expect.poll(() => existsSync(pidFile), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => readFileSync(pidFile, 'utf8')).not.toBe('');
    const helperPid = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(helperPid)).toBe(true);
    // Let the call reach the server before terminating.
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.kill('SIGTERM');
    expect(await closed).toBe(143);
    await expect.poll(() => isAlive(helperPid), { timeout: 10_000 }).toBe(false);
  });
});
