import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '@mcpkit/agent-host';
import { audit } from '@mcpkit/server-kit';
import { connectTestClient, protocolEras, resultText } from '@mcpkit/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';

// The gateway in front of the three reference servers (each from its built bin) and a test backend, with the kit's
// test client as its client.
const repository = fileURLToPath(new URL('../../..', import.meta.url));
const serverBin = (name: string) => join(repository, 'servers', name, 'bin', `mcpkit-${name}.js`);
const flaky = fileURLToPath(new URL('./fixtures/flaky-server.mjs', import.meta.url));

let directory = '';
let gateway: Gateway;
const auditLines: string[] = [];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'mcpkit-gateway-'));
  const data = join(directory, 'data');
  mkdirSync(data);
  writeFileSync(join(data, 'notes.txt'), 'The launch code word is heliotrope.\n');
  const sample = spawnSync(process.execPath, [serverBin('database'), 'sample', join(directory, 'shop.sqlite')]);
  expect(sample.status).toBe(0);
  const config = await parseConfig({
    mcpServers: {
      db: { command: process.execPath, args: [serverBin('database'), join(directory, 'shop.sqlite')] },
      files: {
        command: process.execPath,
        args: [serverBin('filesystem'), data],
        tools: { deny: ['list_*', 'directory_tree'] },
      },
      search: {
        command: process.execPath,
        args: [serverBin('search'), '--no-watch', '--index-file', join(directory, 'index.sqlite'), data],
      },
      flaky: { command: process.execPath, args: [flaky], env: { FLAKY_STATE: join(directory, 'flaky-state') } },
    },
  });
  gateway = await createGateway({
    config,
    restart: { initialDelayMs: 50 },
    log: () => {},
    middleware: [audit({ sink: (line) => auditLines.push(line) })],
  });
  expect(gateway.host.failures).toEqual([]);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('mcpkit-gateway', () => {
  it('offers every backend’s tools under server-prefixed names, without the denied ones', async () => {
    await using client = await connectTestClient(gateway.server);
    const names = (await client.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['db__query', 'files__read_text_file', 'search__search', 'flaky__echo', 'flaky__crash']),
    );
    expect(names.filter((name) => name.startsWith('files__list_') || name === 'files__directory_tree')).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(protocolEras)('routes calls to each backend and passes results back (%s)', async (era) => {
    await using client = await connectTestClient(gateway.server, { era });
    expect(await client.callToolText('files__read_text_file', { path: 'notes.txt' })).toContain('heliotrope');
    expect(await client.callToolText('db__query', { sql: 'SELECT count(*) AS users FROM users' })).toMatch(/users/);
    expect(await client.callToolText('search__search', { query: 'heliotrope' })).toContain('notes.txt');
    expect(auditLines.some((line) => line.includes('"target":"db__query"'))).toBe(true);
  });

  it('rewrites resource URIs so that reads route back to their server', async () => {
    await using client = await connectTestClient(gateway.server);
    const { resources } = await client.client.listResources();
    const { resourceTemplates } = await client.client.listResourceTemplates();
    const uris = [
      ...resources.map((resource) => resource.uri),
      ...resourceTemplates.map((template) => template.uriTemplate),
    ];
    expect(uris.length).toBeGreaterThan(0);
    for (const uri of uris) expect(uri).toMatch(/^(db|files|search|flaky)\+/);
    const fixed = resources.find((resource) => resource.uri.startsWith('db+'));
    expect(fixed).toBeDefined();
    const read = await client.client.readResource({ uri: fixed?.uri ?? '' });
    expect(read.contents[0]?.uri).toBe(fixed?.uri);
  });

  it('passes progress through, and a cancel reaches the backend', async () => {
    await using client = await connectTestClient(gateway.server);
    const progress: number[] = [];
    const done = await client.client.callTool(
      { name: 'flaky__count_slowly', arguments: { count: 3 } },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(resultText(done as never)).toBe('counted to 3');
    expect(progress).toEqual([1, 2, 3]);

    const controller = new AbortController();
    const cancelled = client.client.callTool(
      { name: 'flaky__count_slowly', arguments: { count: 500 } },
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(cancelled).rejects.toThrow();
    await expect.poll(() => readState()).toContain('cancelled');
  });

  it.each(protocolEras)(
    'passes the backend’s elicitation and sampling through to the gateway’s client (%s)',
    async (era) => {
      await using client = await connectTestClient(gateway.server, {
        era,
        onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
        onSample: () => ({ role: 'assistant', content: { type: 'text', text: 'heliotrope' }, model: 'test-model' }),
      });
      expect(await client.callToolText('flaky__ask_name')).toBe('Hello, Ada!');
      expect(await client.callToolText('flaky__ask_model')).toBe('The model said: heliotrope');
    },
  );

  it('passes a backend’s list change on to the gateway’s clients', async () => {
    await using client = await connectTestClient(gateway.server);
    expect(await client.callToolText('flaky__add_tool')).toBe('added');
    await expect
      .poll(() =>
        client.notifications.some((notification) => notification.method === 'notifications/tools/list_changed'),
      )
      .toBe(true);
    await expect
      .poll(async () => (await client.client.listTools()).tools.map((tool) => tool.name))
      .toContain('flaky__extra');
    expect(await client.callToolText('flaky__extra')).toBe('extra');
  });

  it('restarts a backend that dies, and its tools work again', async () => {
    await using client = await connectTestClient(gateway.server);
    const crashed = await client.callTool('flaky__crash');
    expect(crashed.isError).toBe(true);
    await expect
      .poll(async () => resultText(await client.callTool('flaky__echo', { text: 'back' })), { timeout: 20_000 })
      .toBe('back');
    expect(gateway.host.connection('flaky')?.restarts).toBeGreaterThanOrEqual(1);
  });
});

function readState(): string {
  try {
    return readFileSync(join(directory, 'flaky-state'), 'utf8');
  } catch {
    return '';
  }
}
