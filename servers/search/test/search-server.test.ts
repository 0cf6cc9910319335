import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { KitServer } from '@mcpkit/server-kit';
import {
  connectTestClient,
  type ProtocolEraUnderTest,
  protocolEras,
  resultText,
  type TestClient,
} from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSearchServer } from '../src/server.js';
import { type Backend, type BackendIndex, postgresBackend, sqliteBackend } from './backends.js';

const fixtures = fileURLToPath(new URL('./fixtures/company/', import.meta.url));

let workspace: string;
let documents: string;
let server: KitServer;
let client: TestClient;
/** The protocol era of the clients of the suite running now. */
let era: ProtocolEraUnderTest = '2025-11-25';
/** The index backend of the suite running now, and this test's index in it. */
let backend: Backend = sqliteBackend;
let created: BackendIndex | undefined;
const shown = (relative: string) => backend.shownPath(documents, relative);

async function start(options: { watch?: boolean } = {}) {
  server = createSearchServer({
    directories: [documents],
    ...created?.options,
    watch: options.watch ?? false,
    logLevel: 'emergency',
  });
  client = await connectTestClient(server, { era });
}

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'mcpkit-search-server-'));
  documents = join(workspace, 'documents');
  await cp(fixtures, documents, { recursive: true });
  await writeFile(join(workspace, 'outside.md'), 'a secret vacation plan outside the directory\n');
});

afterEach(async () => {
  await client?.close();
  await server?.close();
  await created?.remove();
  created = undefined;
  await rm(workspace, { recursive: true, force: true });
});

/** Every protocol era on SQLite; PostgreSQL on the newest era (the tools see the same index interface). */
const suites: { era: ProtocolEraUnderTest; backend: Backend }[] = [
  ...protocolEras.map((suiteEra) => ({ era: suiteEra, backend: sqliteBackend })),
  { era: protocolEras[protocolEras.length - 1] as ProtocolEraUnderTest, backend: postgresBackend },
];

describe.each(suites)('search server in memory, protocol $era, $backend.name index', (suite) => {
  beforeEach(async (context) => {
    if (suite.backend.skipReason) context.skip(suite.backend.skipReason);
    era = suite.era;
    backend = suite.backend;
    created = await backend.create(workspace);
  });

  it('offers the local tools and fetch_url, but not web_search without a provider', async () => {
    await start();
    const names = (await client.client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['fetch_url', 'get_document', 'index_path', 'index_status', 'search']);
  });

  it('answers the vacation question with path:line and a snippet', async () => {
    await start();
    const result = await client.callTool('search', { query: "What is our company's vacation policy?" });
    const text = resultText(result);
    expect(text.split('\n')[0]).toMatch(/^1\. .*hr\/vacation-policy\.md:\d+ \(Vacation Policy\) score [\d.]+$/);
    expect(text).toContain('**vacation**');
    const structured = result.structuredContent as { results: { path: string; line: number }[] };
    expect(structured.results[0]?.path).toBe(shown('hr/vacation-policy.md'));
  });

  it('pages with a cursor and refuses a cursor of another query', async () => {
    await start();
    const first = await client.callTool('search', { query: 'policy', limit: 2 });
    const cursor = (first.structuredContent as { nextCursor?: string }).nextCursor;
    expect(cursor).toBeDefined();
    const second = await client.callTool('search', { query: 'policy', limit: 2, cursor });
    const firstPaths = (first.structuredContent as { results: { path: string }[] }).results.map((hit) => hit.path);
    const secondPaths = (second.structuredContent as { results: { path: string }[] }).results.map((hit) => hit.path);
    expect(secondPaths.some((path) => firstPaths.includes(path))).toBe(false);
    const wrong = await client.callTool('search', { query: 'other', cursor });
    expect(wrong.isError).toBe(true);
    expect(resultText(wrong)).toMatch(/different query/);
    const garbage = await client.callTool('search', { query: 'policy', cursor: '!!!' });
    expect(garbage.isError).toBe(true);
  });

  it('answers a bad query with one readable sentence', async () => {
    await start();
    const result = await client.callTool('search', { query: '"unterminated phrase' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^The query .* is not valid search syntax/);
  });

  it('filters by path_glob', async () => {
    await start();
    const result = await client.callTool('search', { query: 'policy', path_glob: 'legal/**' });
    const paths = (result.structuredContent as { results: { path: string }[] }).results.map((hit) => hit.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((path) => path.includes('/legal/'))).toBe(true);
  });

  it('reads a document by lines, relative or absolute', async () => {
    await start();
    const text = await client.callToolText('get_document', { path: 'hr/vacation-policy.md', offset: 7, limit: 2 });
    expect(text).toContain('lines 7-8 of');
    expect(text).toMatch(/^ *7 {2}Every employee accrues 25 days/m);
    expect(text).toContain('Continue with offset=9');
    const absolute = await client.callToolText('get_document', { path: join(documents, 'README.md') });
    expect(absolute).toContain('Northwind Labs handbook');
  });

  it('refuses paths outside the directories, through .. and through symbolic links', async () => {
    await start();
    await symlink(join(workspace, 'outside.md'), join(documents, 'link.md'));
    for (const path of ['../outside.md', join(workspace, 'outside.md'), 'link.md', '/etc/passwd']) {
      const result = await client.callTool('get_document', { path });
      expect(result.isError, path).toBe(true);
      expect(resultText(result)).toMatch(/outside the indexed directories|does not exist/);
      expect(resultText(result)).not.toContain('secret');
    }
    const missing = await client.callTool('get_document', { path: 'hr/nope.md' });
    expect(resultText(missing)).toMatch(/does not exist/);
    const offset = await client.callTool('get_document', { path: 'README.md', offset: 500 });
    expect(resultText(offset)).toMatch(/has \d+ lines/);
  });

  it('indexes a directory with progress and refuses one outside', async () => {
    await start();
    await client.callTool('search', { query: 'policy' }); // waits for the first refresh
    await writeFile(
      join(documents, 'hr', 'sabbatical.md'),
      '# Sabbatical\n\nAfter five years, a paid sabbatical of one month.\n',
    );
    const progress: number[] = [];
    const result = await client.client.callTool({ name: 'index_path', arguments: { path: 'hr' } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(result.isError).toBeFalsy();
    expect(resultText(result as never)).toMatch(/1 added/);
    expect(progress.length).toBeGreaterThan(0);
    const found = await client.callToolText('search', { query: 'sabbatical' });
    expect(found).toContain('sabbatical.md:3');
    const outside = await client.callTool('index_path', { path: workspace });
    expect(outside.isError).toBe(true);
  });

  it('stops index_path when the client cancels, keeping what was committed', async () => {
    for (let file = 0; file < 1500; file++) {
      await writeFile(join(documents, `bulk-${file}.md`), `bulk note ${file}\n`);
    }
    server = createSearchServer({
      directories: [documents],
      ...created?.options,
      indexOnStart: false,
      watch: false,
      batchFiles: 20,
      logLevel: 'emergency',
    });
    client = await connectTestClient(server, { era });
    const controller = new AbortController();
    const call = client.client.callTool({ name: 'index_path', arguments: { path: documents } }, undefined, {
      signal: controller.signal,
      // Changed files are indexed while the scan goes on: cancelled once some are.
      onprogress: (update) => {
        if (update.progress > 0) controller.abort();
      },
    });
    await expect(call).rejects.toThrow();
    await expect
      .poll(async () => (await client.callTool('index_status')).structuredContent?.running, { timeout: 15_000 })
      .toBeUndefined();
    const { documents: stored } = (await client.callTool('index_status')).structuredContent as { documents: number };
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(1514);
  });

  it('reports its status', async () => {
    await start();
    await client.callTool('search', { query: 'policy' }); // waits for the first refresh
    const result = await client.callTool('index_status');
    expect(resultText(result)).toContain('Documents: 14');
    expect(result.structuredContent).toMatchObject({ documents: 14, ready: true, directories: [documents] });
  });

  it('lists and reads documents as file:// resources, refusing others', async () => {
    await start();
    await client.callTool('search', { query: 'policy' });
    const { resources } = await client.client.listResources();
    const vacation = resources.find((resource) => resource.uri.endsWith('/hr/vacation-policy.md'));
    expect(vacation?.name).toBe('Vacation Policy');
    const read = await client.client.readResource({ uri: vacation?.uri as string });
    expect((read.contents[0] as { text: string }).text).toContain('25 days of paid vacation');
    await expect(
      client.client.readResource({ uri: pathToFileURL(join(workspace, 'outside.md')).href }),
    ).rejects.toThrow(/outside the indexed directories|Resource not found/);
  });

  it('picks up new, changed and deleted files while serving', async () => {
    await start({ watch: true });
    await client.callTool('search', { query: 'policy' });
    await writeFile(
      join(documents, 'legal', 'whistleblowing.md'),
      '# Whistleblowing\n\nReport concerns to the ombudsperson.\n',
    );
    await expect
      .poll(() => client.callToolText('search', { query: 'ombudsperson' }), { timeout: 15_000, interval: 200 })
      .toContain('whistleblowing.md');
    await rm(join(documents, 'legal', 'whistleblowing.md'));
    await expect
      .poll(() => client.callToolText('search', { query: 'ombudsperson' }), { timeout: 15_000, interval: 200 })
      .toMatch(/^No results/);
  });
});
