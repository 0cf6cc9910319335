import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LocalIndex } from '../src/local-index/local-index.js';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';

let directory: string;
let running: InMemoryServer | undefined;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcpkit-search-stored-title-'));
});
afterEach(async () => {
  await running?.close();
  running = undefined;
  await rm(directory, { recursive: true, force: true });
});

it('a long title stored by an older server is cut where it is shown: search text, structured results, resources', async () => {
  // Titles are cut when a file's text is extracted, but an index written before that keeps its long titles for every
  // file that has not changed since: unchanged files are not read again.
  const documents = join(directory, 'documents');
  const indexFile = join(directory, 'index.sqlite');
  await mkdir(documents);
  await writeFile(join(documents, 'page.md'), '# Page\n\nthe needle\n');
  const index = new LocalIndex({ directories: [documents], indexFile });
  await index.refreshAll();
  await index.close();
  const longTitle = 'needle '.repeat(20_000);
  const database = new Database(indexFile);
  database.prepare('UPDATE documents SET title = ?').run(longTitle);
  database.close();

  running = await startInMemoryServer({ directories: [documents], indexFile });
  const result = await running.client.callTool('search', { query: 'needle' });
  expect(result.isError).toBeFalsy();
  const hits = (result.structuredContent as { results: { title: string }[] }).results;
  expect(hits).toHaveLength(1);
  expect(hits[0]?.title).toMatch(/^needle needle .*…$/);
  expect(hits[0]?.title.length).toBeLessThanOrEqual(201);
  expect(resultText(result).length).toBeLessThan(1000);
  const { resources } = await running.client.client.listResources();
  expect(resources).toHaveLength(1);
  expect(resources[0]?.name.length).toBeLessThanOrEqual(201);
  expect(resources[0]?.name).toMatch(/^needle needle .*…$/);
});
