import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFreshBundle } from './support/fresh-bundle.js';

// This file copies the bundle in dist/: it fails at once, saying so, on a bundle older than the kit's files.
beforeAll(expectFreshBundle);

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
// Inside the package's node_modules, so that the copy resolves the kit's dependencies as dist/ does.
const copy = mkdtempSync(join(packageRoot, 'node_modules', '.call-path-missing-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const echoServer = `import { createServer, definePrompt, defineTool, serveStdio } from './index.js';
import { z } from 'zod';
const echo = defineTool({ name: 'echo', description: 'Echoes.', input: z.object({ text: z.string() }), handler: ({ text }) => text });
const greet = definePrompt({ name: 'greet', description: 'Greets.', handler: () => 'hello' });
await serveStdio(createServer({ name: 'broken', version: '1.0.0', tools: [echo], prompts: [greet] }));
`;

describe('a kit whose tool-call code cannot be loaded (ADR 0020)', () => {
  it('answers each call and prompt with an error that says so, lists its tools, logs why, and exits cleanly', async () => {
    cpSync(join(packageRoot, 'dist'), copy, { recursive: true, filter: (path) => !path.endsWith('.d.ts') });
    const chunks = join(copy, 'chunks');
    const callPath = readdirSync(chunks).filter((file) => file.startsWith('call-path-') && file.endsWith('.js'));
    expect(callPath).toHaveLength(1);
    rmSync(join(chunks, callPath[0] as string));
    writeFileSync(join(copy, 'server.mjs'), echoServer);

    const child = spawn(process.execPath, [join(copy, 'server.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const response = async (id: number) => {
      const find = () =>
        stdout
          .split('\n')
          .filter(Boolean)
          .map(
            (line) => JSON.parse(line) as { id?: number; error?: { code: number; message: string }; result?: unknown },
          )
          .find((message) => message.id === id);
      await expect.poll(find, { timeout: 20_000 }).toBeDefined();
      return find();
    };
    const call = (id: number) => ({ id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });

    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await response(1);
    send({ method: 'notifications/initialized' });
    // A call before any list loads the code itself; then a list (which starts a load of its own after answering)
    // and a call after it: each failure is the caller's answer, none a hang, and the server goes on.
    send(call(2));
    expect((await response(2))?.error).toEqual({
      code: -32603,
      message: "The server could not load the code that runs tools; the server's log has the details.",
    });
    send({ id: 3, method: 'tools/list' });
    expect((await response(3))?.result).toMatchObject({ tools: [{ name: 'echo' }] });
    send(call(4));
    expect((await response(4))?.error?.code).toBe(-32603);
    // A prompt builds a tool context: the same answer, with no file path of the server's in it.
    send({ id: 5, method: 'prompts/get', params: { name: 'greet' } });
    expect((await response(5))?.error).toEqual({
      code: -32603,
      message: "The server could not load the code that runs tools; the server's log has the details.",
    });
    // The log says which file and why, once a request, and once for the load the list started.
    const logged = (what: string) =>
      new RegExp(
        `${what}\\nError: The kit's tool-call code could not be loaded \\(Cannot find module '[^']*call-path-[^)]*\\); reinstall or rebuild`,
        'g',
      );
    expect(stderr.match(logged('Tool "echo" could not run'))).toHaveLength(2);
    expect(stderr.match(logged('Prompt "greet" could not run'))).toHaveLength(1);
    expect(stderr.match(logged('Loading the tool-call code ahead of the first call failed'))).toHaveLength(1);
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
