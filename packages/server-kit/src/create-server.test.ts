import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createServer } from './create-server.js';
import { definePrompt } from './define-prompt.js';
import { defineResource } from './define-resource.js';
import { defineTool } from './define-tool.js';
import { KitError, ToolError } from './errors.js';
import { connectTestClient, resultText } from './testing/index.js';

const greet = defineTool({
  name: 'greet',
  description: 'Greets someone by name.',
  input: z.object({ name: z.string().min(1).describe('Who to greet') }),
  annotations: { readOnlyHint: true },
  handler: ({ name }) => `Hello, ${name}!`,
});

const refuse = defineTool({
  name: 'refuse',
  description: 'Always refuses.',
  handler: () => {
    throw new ToolError('No, and here is why.');
  },
});

const crash = defineTool({
  name: 'crash',
  description: 'Throws an unexpected error.',
  handler: () => {
    throw new Error('secret detail at /home/user/private');
  },
});

describe('createServer', () => {
  it('lists a tool with its JSON schema and annotations, and calls it', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [greet] }));
    const { tools } = await client.client.listTools();
    expect(tools).toHaveLength(1);
    expect(tools[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', description: 'Who to greet' } },
      required: ['name'],
    });
    expect(tools[0]?.annotations).toEqual({ readOnlyHint: true });
    expect(await client.callToolText('greet', { name: 'Ada' })).toBe('Hello, Ada!');
  });

  it('tells onToolsListed of every tools/list, and of nothing else', async () => {
    let listed = 0;
    await using client = await connectTestClient(
      createServer({
        name: 't',
        version: '1',
        tools: [greet],
        onToolsListed: () => {
          listed += 1;
        },
      }),
    );
    expect(listed).toBe(0);
    await client.client.listTools();
    await client.callTool('greet', { name: 'Ada' });
    await client.client.listTools();
    expect(listed).toBe(2);
  });

  it('answers arguments that fail the schema with a readable isError result', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [greet] }));
    const result = await client.callTool('greet', { name: 42 });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^Invalid arguments for tool "greet": name: .*expected string/);
  });

  it('turns a ToolError into its message and hides the details of an unexpected error', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const server = createServer({ name: 't', version: '1', tools: [refuse, crash], logLevel: 'error' });
    await using client = await connectTestClient(server);
    const refused = await client.callTool('refuse');
    expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No, and here is why.' }] });
    const crashed = await client.callTool('crash');
    expect(crashed.isError).toBe(true);
    expect(resultText(crashed)).not.toContain('/home/user');
    expect(resultText(crashed)).toContain('internal error');
    // the developer gets the whole story on stderr: the message and the stack
    const logged = stderr.mock.calls.map(([chunk]) => String(chunk)).join('');
    expect(logged).toMatch(
      /\[t\] error: Tool "crash" threw an unexpected error\nError: secret detail at \/home\/user\/private\n\s+at /,
    );
    stderr.mockRestore();
  });

  it('answers an unknown tool with a JSON-RPC invalid-params error', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [greet] }));
    const error = await client.client.callTool({ name: 'nope', arguments: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
  });

  it('answers malformed requests with JSON-RPC invalid params and a readable reason, not an internal error', async () => {
    // Every kind is offered: a server without resources or prompts answers their methods with method not found.
    const note = defineResource({ uri: 'note://one', name: 'note', read: () => 'one' });
    const hello = definePrompt({ name: 'hello', render: () => 'Hello.' });
    await using client = await connectTestClient(
      createServer({ name: 't', version: '1', tools: [greet], resources: [note], prompts: [hello] }),
    );
    const malformed = [
      { method: 'tools/call', params: { name: 'greet', arguments: 'not an object' } },
      { method: 'resources/read', params: {} },
      { method: 'prompts/get', params: { name: 42 } },
      { method: 'completion/complete', params: { ref: { type: 'ref/prompt' } } },
    ];
    for (const request of malformed) {
      const error = await client.client.request(request, z.object({})).catch((caught: unknown) => caught);
      expect(error, request.method).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code, request.method).toBe(ProtocolErrorCode.InvalidParams);
      expect((error as ProtocolError).message).toMatch(new RegExp(`Invalid (${request.method}|tools/call) request`));
    }
  });

  it('rejects duplicate and invalid names at definition time with a typed error', () => {
    expect(() => createServer({ name: 't', version: '1', tools: [greet, greet] })).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_NAME' }),
    );
    expect(() => defineTool({ name: 'has space', description: 'x', handler: () => '' })).toThrow(KitError);
  });

  it('cuts an over-budget result at a line boundary and says how to get the rest', async () => {
    const big = defineTool({
      name: 'big',
      description: 'Returns many lines.',
      budget: 1000,
      truncationHint: 'Call again with offset.',
      handler: () => Array.from({ length: 500 }, (_, index) => `line ${index}`).join('\n'),
    });
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [big] }));
    const text = await client.callToolText('big');
    const [body, note] = text.split('\n[truncated');
    expect(body?.length).toBeLessThanOrEqual(1000);
    expect(body?.endsWith('\n')).toBe(true);
    expect(note).toContain('Call again with offset.');
  });

  it('notifies connected clients when a tool is added at run time', async () => {
    const server = createServer({ name: 't', version: '1', tools: [greet] });
    await using client = await connectTestClient(server);
    server.addTool(refuse);
    await expect
      .poll(() => client.notifications.map((notification) => notification.method))
      .toContain('notifications/tools/list_changed');
    expect((await client.client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet', 'refuse']);
  });
});

describe('offer notifiers', () => {
  it('hear every change of tools, prompts and resources until removed', async () => {
    const server = createServer({ name: 'notified', version: '1' });
    const heard: string[] = [];
    const remove = server.addNotifier({
      toolsChanged: () => heard.push('tools'),
      promptsChanged: () => heard.push('prompts'),
      resourcesChanged: () => heard.push('resources'),
      resourceUpdated: (uri) => heard.push(`updated ${uri}`),
    });
    server.addTool(defineTool({ name: 'one', description: 'One.', handler: () => 'one' }));
    server.addPrompt(definePrompt({ name: 'hello', description: 'Hello.', render: () => 'hello' }));
    server.addResource(defineResource({ uri: 'note://a', name: 'a', read: () => 'a' }));
    await server.notifyResourceUpdated('note://a');
    remove();
    server.removeTool('one');
    expect(heard).toEqual(['tools', 'prompts', 'resources', 'updated note://a']);
    await server.close();
  });
});

describe('cache hints', () => {
  it('never reach a 2025-11-25 client', async () => {
    const server = createServer({
      name: 'cached',
      version: '1',
      tools: [greet],
      cache: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' } },
    });
    await using client = await connectTestClient(server);
    const listed = await client.client.request({ method: 'tools/list', params: {} }, z.looseObject({}));
    expect(listed).not.toHaveProperty('ttlMs');
    expect(listed).not.toHaveProperty('cacheScope');
  });
});
