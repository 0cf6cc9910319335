import { ProtocolErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { mcpErrorOf } from '../test/support/mcp-error.js';
import { createServer } from './create-server.js';
import { defineResource } from './define-resource.js';
import { KitError, ToolError } from './errors.js';
import { connectTestClient, protocolEras } from './testing/index.js';

const readme = defineResource({
  uri: 'docs://readme',
  name: 'readme',
  title: 'Read me',
  description: 'The project read-me.',
  mimeType: 'text/markdown',
  size: 7,
  read: () => '# Hello',
});

const logo = defineResource({
  uri: 'docs://logo',
  name: 'logo',
  mimeType: 'image/png',
  read: () => ({ blob: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) }),
});

const tables = ['users', 'orders'];
const table = defineResource({
  template: 'db://tables/{name}',
  name: 'table',
  description: 'A table of the database.',
  mimeType: 'application/json',
  read: (uri, { name }) => {
    if (!tables.includes(String(name))) throw new ToolError(`There is no table named ${String(name)}.`);
    return [{ uri, text: JSON.stringify({ table: name }) }];
  },
  list: () => tables.map((name) => ({ uri: `db://tables/${name}`, name })),
  complete: { name: (value) => tables.filter((name) => name.startsWith(value)) },
});

const broken = defineResource({
  uri: 'docs://broken',
  name: 'broken',
  read: () => {
    throw new Error('disk on fire at /var/secret');
  },
});

// A read that depends on the client's roots, as the filesystem server's file:// resources do.
const rooted = defineResource({
  uri: 'docs://roots',
  name: 'roots',
  read: async (context) => (await context.roots())?.map((root) => root.uri).join(',') ?? 'no roots',
});

function serve() {
  return createServer({ name: 't', version: '1', resources: [readme, logo, table, broken], logLevel: 'emergency' });
}

describe('resources', () => {
  it('lists fixed resources with their fields and the resources a template lists', async () => {
    await using client = await connectTestClient(serve());
    const { resources } = await client.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      'docs://readme',
      'docs://logo',
      'docs://broken',
      'db://tables/users',
      'db://tables/orders',
    ]);
    expect(resources[0]).toEqual({
      uri: 'docs://readme',
      name: 'readme',
      title: 'Read me',
      description: 'The project read-me.',
      mimeType: 'text/markdown',
      size: 7,
    });
  });

  it('lists templates with their URI template', async () => {
    await using client = await connectTestClient(serve());
    const { resourceTemplates } = await client.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: 'db://tables/{name}',
        name: 'table',
        description: 'A table of the database.',
        mimeType: 'application/json',
      },
    ]);
  });

  it('reads a text resource with its mime type and a binary one as base64', async () => {
    await using client = await connectTestClient(serve());
    expect((await client.client.readResource({ uri: 'docs://readme' })).contents).toEqual([
      { uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' },
    ]);
    expect((await client.client.readResource({ uri: 'docs://logo' })).contents).toEqual([
      { uri: 'docs://logo', mimeType: 'image/png', blob: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') },
    ]);
  });

  it.each(protocolEras)('reads a resource that needs the client roots, protocol %s', async (era) => {
    const server = createServer({ name: 't', version: '1', resources: [rooted] });
    await using client = await connectTestClient(server, { era, roots: [{ uri: 'file:///work' }] });
    expect((await client.client.readResource({ uri: 'docs://roots' })).contents).toEqual([
      { uri: 'docs://roots', text: 'file:///work' },
    ]);
    await client.setRoots([{ uri: 'file:///elsewhere' }]);
    await expect
      .poll(async () => (await client.client.readResource({ uri: 'docs://roots' })).contents[0])
      .toMatchObject({ text: 'file:///elsewhere' });
    await using rootless = await connectTestClient(server, { era });
    expect((await rootless.client.readResource({ uri: 'docs://roots' })).contents).toMatchObject([
      { text: 'no roots' },
    ]);
  });

  it("puts a resource's cache hint on modern reads only; the 2025 era never carries the fields", async () => {
    const rules = defineResource({
      uri: 'docs://rules',
      name: 'rules',
      cache: { ttlMs: 5000, cacheScope: 'public' },
      read: () => 'Be kind.',
    });
    const server = createServer({ name: 't', version: '1', resources: [rules, readme] });
    await using modern = await connectTestClient(server, { era: '2026-07-28' });
    expect(await modern.client.readResource({ uri: 'docs://rules' })).toMatchObject({
      ttlMs: 5000,
      cacheScope: 'public',
    });
    expect(await modern.client.readResource({ uri: 'docs://readme' })).toMatchObject({
      ttlMs: 0,
      cacheScope: 'private',
    });
    await using legacy = await connectTestClient(server, { era: '2025-11-25' });
    const read = await legacy.client.readResource({ uri: 'docs://rules' });
    expect(read).not.toHaveProperty('ttlMs');
    expect(read).not.toHaveProperty('cacheScope');
  });

  it('reads through a template with the variables filled in', async () => {
    await using client = await connectTestClient(serve());
    const { contents } = await client.client.readResource({ uri: 'db://tables/orders' });
    expect(contents).toEqual([{ uri: 'db://tables/orders', mimeType: 'application/json', text: '{"table":"orders"}' }]);
  });

  it('answers an unknown URI, and a ToolError from read, with JSON-RPC invalid params (-32602)', async () => {
    await using client = await connectTestClient(serve());
    const unknown = await mcpErrorOf(client.client.readResource({ uri: 'nothing://here' }));
    expect(unknown.code).toBe(ProtocolErrorCode.InvalidParams);
    expect(unknown.message).toContain('Resource not found: nothing://here');
    // SEP-2164: the unknown URI travels in the error's data too.
    expect(unknown.data).toEqual({ uri: 'nothing://here' });
    const missing = await mcpErrorOf(client.client.readResource({ uri: 'db://tables/ghosts' }));
    expect(missing.code).toBe(-32602);
    expect(missing.message).toContain('There is no table named ghosts.');
  });

  it('hides the details of an unexpected error in read behind an internal error', async () => {
    await using client = await connectTestClient(serve());
    const error = await mcpErrorOf(client.client.readResource({ uri: 'docs://broken' }));
    expect(error.code).toBe(ProtocolErrorCode.InternalError);
    expect(error.message).not.toContain('/var/secret');
  });

  it('sends updated notifications to subscribed sessions only, and stops after unsubscribe', async () => {
    const server = serve();
    await using subscribed = await connectTestClient(server);
    await using other = await connectTestClient(server);
    await subscribed.client.subscribeResource({ uri: 'docs://readme' });
    await server.notifyResourceUpdated('docs://readme');
    await server.notifyResourceUpdated('docs://logo');
    await expect
      .poll(() => subscribed.notifications.filter((item) => item.method === 'notifications/resources/updated'))
      .toMatchObject([{ method: 'notifications/resources/updated', params: { uri: 'docs://readme' } }]);
    await subscribed.client.unsubscribeResource({ uri: 'docs://readme' });
    await server.notifyResourceUpdated('docs://readme');
    await other.client.ping(); // a round trip, so that a stray notification would have arrived by now
    await subscribed.client.ping();
    expect(subscribed.notifications.filter((item) => item.method === 'notifications/resources/updated')).toHaveLength(
      1,
    );
    expect(other.notifications).toEqual([]);
  });

  it('tells clients when resources are added or removed at run time', async () => {
    const server = serve();
    await using client = await connectTestClient(server);
    server.addResource(defineResource({ uri: 'docs://new', name: 'new', read: () => 'new' }));
    expect(server.removeResource('db://tables/{name}')).toBe(true);
    expect(server.removeResource('docs://never')).toBe(false);
    await expect
      .poll(() => client.notifications.filter((item) => item.method === 'notifications/resources/list_changed'))
      .toHaveLength(2);
    const { resources } = await client.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      'docs://readme',
      'docs://logo',
      'docs://broken',
      'docs://new',
    ]);
  });

  it('rejects bad declarations at definition time with a typed error naming the offender', () => {
    expect(() => createServer({ name: 't', version: '1', resources: [readme, readme] })).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_URI', message: expect.stringContaining('docs://readme') }),
    );
    expect(() => defineResource({ uri: 'no-scheme', name: 'x', read: () => '' })).toThrow(KitError);
    expect(() => defineResource({ uri: 'a://b', template: 'a://{c}', name: 'both', read: () => '' } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION' }),
    );
    for (const cache of [{ ttlMs: -1 }, { ttlMs: 1.5 }, { cacheScope: 'shared' }] as const) {
      expect(() => defineResource({ uri: 'docs://x', name: 'x', cache: cache as never, read: () => '' })).toThrow(
        /Resource "x" has cache\.(ttlMs|cacheScope)/,
      );
    }
  });
});

describe('completion', () => {
  it('completes a template variable from what was typed, and answers an unknown reference with no values', async () => {
    await using client = await connectTestClient(serve());
    const { completion } = await client.client.complete({
      ref: { type: 'ref/resource', uri: 'db://tables/{name}' },
      argument: { name: 'name', value: 'us' },
    });
    expect(completion).toEqual({ values: ['users'], total: 1, hasMore: false });
    const none = await client.client.complete({
      ref: { type: 'ref/resource', uri: 'db://other/{x}' },
      argument: { name: 'x', value: '' },
    });
    expect(none.completion.values).toEqual([]);
  });

  it('caps completions at 100 values and says there are more', async () => {
    const many = defineResource({
      template: 'n://{value}',
      name: 'numbers',
      read: (_uri, { value }) => String(value),
      complete: { value: () => Array.from({ length: 250 }, (_, index) => String(index)) },
    });
    await using client = await connectTestClient(createServer({ name: 't', version: '1', resources: [many] }));
    const { completion } = await client.client.complete({
      ref: { type: 'ref/resource', uri: 'n://{value}' },
      argument: { name: 'value', value: '' },
    });
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 250, hasMore: true });
  });
});
