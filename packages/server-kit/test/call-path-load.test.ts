import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, startNodeProcess } from './support/child-process.js';
import { expectFreshBundle } from './support/fresh-bundle.js';

// This file copies the bundle in dist/: it fails at once, saying so, on a bundle older than the kit's files.
beforeAll(expectFreshBundle);

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

const serverSource = `import { createServer, definePrompt, defineResource, defineTool, serveStdio } from './index.js';
import { z } from 'zod';
const echo = defineTool({ name: 'echo', description: 'Echoes.', input: z.object({ text: z.string() }), handler: ({ text }) => text });
const greet = definePrompt({ name: 'greet', description: 'Greets.', handler: () => 'hello' });
const readme = defineResource({ uri: 'note://readme', name: 'readme', read: () => 'hello' });
await serveStdio(createServer({ name: 'broken', version: '1.0.0', tools: [echo], prompts: [greet], resources: [readme] }));
`;

type Answer = { error?: { code: number; message: string }; result?: unknown } | undefined;

interface BrokenServer extends Omit<Child, 'response'> {
  response(id: number): Promise<Answer>;
}

/** A copy of the bundle without the chunks whose names start with `missing`, serving {@link serverSource} over stdio. */
async function brokenServer(missing: string[], era: 'legacy' | 'modern' = 'legacy'): Promise<BrokenServer> {
  // Inside the package's node_modules, so that the copy resolves the kit's dependencies as dist/ does.
  const copy = mkdtempSync(join(packageRoot, 'node_modules', '.kit-code-missing-'));
  copies.push(copy);
  cpSync(join(packageRoot, 'dist'), copy, { recursive: true, filter: (path) => !path.endsWith('.d.ts') });
  const chunks = join(copy, 'chunks');
  for (const prefix of missing) {
    const found = readdirSync(chunks).filter((file) => file.startsWith(`${prefix}-`) && file.endsWith('.js'));
    expect(found, prefix).toHaveLength(1);
    rmSync(join(chunks, found[0] as string));
  }
  writeFileSync(join(copy, 'server.mjs'), serverSource);

  const child = startNodeProcess(join(copy, 'server.mjs'));
  // A 2026-07-28 client opens no session: each request carries its version, capabilities and identity.
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
  const send = (message: Record<string, unknown> & { params?: object }) =>
    child.send(era === 'modern' ? { ...message, params: { ...message.params, _meta: envelope } } : message);
  const response = (id: number) => child.response(id) as Promise<Answer>;
  if (era === 'modern') {
    send({ id: 1, method: 'server/discover' });
    await response(1);
  } else {
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await response(1);
    send({ method: 'notifications/initialized' });
  }
  return { ...child, send, response };
}

/** How the log reports `what` that could not run for want of the kit's `part` code, missing from the install. */
const logged = (what: string, part: string, file: string) =>
  new RegExp(
    `${what}\\nError: The kit's ${part} code could not be loaded \\(Cannot find module '[^']*${file}-[^)]*\\); reinstall or rebuild`,
    'g',
  );

describe('a kit whose own code cannot be loaded (ADR 0020)', () => {
  it('answers each call and prompt with an error that says so, lists its tools, logs why, and exits cleanly', async () => {
    const server = await brokenServer(['call-path']);
    const call = (id: number) => ({ id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });
    // A call before any list loads the code itself; then a list (which starts a load of its own after answering)
    // and a call after it: each failure is the caller's answer, none a hang, and the server goes on.
    server.send(call(2));
    expect((await server.response(2))?.error).toEqual({
      code: -32603,
      message: "The server could not load the code that runs tools; the server's log has the details.",
    });
    server.send({ id: 3, method: 'tools/list' });
    expect((await server.response(3))?.result).toMatchObject({ tools: [{ name: 'echo' }] });
    server.send(call(4));
    expect((await server.response(4))?.error?.code).toBe(-32603);
    // A prompt builds a tool context: the same answer, with no file path of the server's in it.
    server.send({ id: 5, method: 'prompts/get', params: { name: 'greet' } });
    expect((await server.response(5))?.error).toEqual({
      code: -32603,
      message: "The server could not load the code that runs tools; the server's log has the details.",
    });
    // The log says which file and why, once a request, and once for the load the list started.
    const stderr = server.stderr();
    expect(stderr.match(logged('Tool "echo" could not run', 'tool-call', 'call-path'))).toHaveLength(2);
    expect(stderr.match(logged('Prompt "greet" could not run', 'tool-call', 'call-path'))).toHaveLength(1);
    expect(
      stderr.match(logged('Loading the tool-call code ahead of the first call failed', 'tool-call', 'call-path')),
    ).toHaveLength(1);
    server.process.stdin.end();
    expect(await server.exited).toBe(0);
  });

  it('answers prompts/get and resources/read with the kit’s own words when their code is missing, and logs why', async () => {
    const server = await brokenServer(['get-prompt', 'read-resource']);
    const answer = {
      code: -32603,
      message: "The server could not load the code that answers this request; the server's log has the details.",
    };
    server.send({ id: 2, method: 'prompts/get', params: { name: 'greet' } });
    expect((await server.response(2))?.error).toEqual(answer);
    server.send({ id: 3, method: 'resources/read', params: { uri: 'note://readme' } });
    expect((await server.response(3))?.error).toEqual(answer);
    // Tried again, not remembered: the second request fails and is logged as the first.
    server.send({ id: 4, method: 'resources/read', params: { uri: 'note://readme' } });
    expect((await server.response(4))?.error).toEqual(answer);
    server.send({ id: 5, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } });
    expect((await server.response(5))?.result).toMatchObject({ content: [{ type: 'text', text: 'still here' }] });
    const stderr = server.stderr();
    expect(stderr.match(logged('Prompt "greet" could not run', 'prompts/get', 'get-prompt'))).toHaveLength(1);
    expect(
      stderr.match(logged('Resource "note://readme" could not run', 'resources/read', 'read-resource')),
    ).toHaveLength(2);
    server.process.stdin.end();
    expect(await server.exited).toBe(0);
  });

  it('answers a 2026-07-28 call in the kit’s own words when the round engine is missing, tries again, logs why', async () => {
    const server = await brokenServer(['input-rounds'], 'modern');
    const answer = {
      code: -32603,
      message: "The server could not load the code that answers this request; the server's log has the details.",
    };
    for (const id of [2, 3]) {
      server.send({ id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });
      expect((await server.response(id))?.error).toEqual(answer);
    }
    server.send({ id: 4, method: 'tools/list' });
    expect((await server.response(4))?.result).toMatchObject({ tools: [{ name: 'echo' }] });
    expect(
      server.stderr().match(logged('tools/call "echo" could not run', 'round engine', 'input-rounds')),
    ).toHaveLength(2);
    server.process.stdin.end();
    expect(await server.exited).toBe(0);
  });
});
