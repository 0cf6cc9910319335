import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';

let directory: string;
let running: InMemoryServer;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcpkit-search-paging-'));
  const words = 'the quick brown fox jumps over the lazy dog near the river bank while needle sits there '.repeat(6);
  for (let file = 0; file < 120; file++) {
    const name = `document-with-a-longer-name-${String(file).padStart(3, '0')}.md`;
    await writeFile(join(directory, name), `# Title of document number ${file} about needles\n\n${words}\n`);
  }
  running = await startInMemoryServer({ directories: [directory] });
});
afterAll(async () => {
  await running.close();
  await rm(directory, { recursive: true, force: true });
});

it('pages of 50 ordinary hits reach every file: a page ends where the budget does and its cursor goes on from there', async () => {
  // Before: the 20,000-character budget cut each page of 50 to 32 hits while the cursor went on 50 later, so 36 of
  // the 120 files were never shown.
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const result = await running.client.callTool('search', {
      query: 'needle',
      limit: 50,
      ...(cursor ? { cursor } : {}),
    });
    expect(resultText(result)).not.toMatch(/cut to fit/);
    const structured = result.structuredContent as { results: { path: string }[]; nextCursor?: string };
    for (const hit of structured.results) seen.add(hit.path);
    cursor = structured.nextCursor;
    if (!cursor) break;
  }
  expect(seen.size).toBe(120);
});

it('pages as well for a query of 1,000 characters: the cursor keeps a digest of the query, not the query', async () => {
  // Before: the cursor held the query itself, written twice a page (text and structured results); a long query of
  // control characters or CJK made it outgrow the page's room, and the budget's cut took hits and the cursor.
  const query = `needle ${'\u0001'.repeat(992)}`;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const result = await running.client.callTool('search', { query, limit: 50, ...(cursor ? { cursor } : {}) });
    expect(resultText(result)).not.toMatch(/cut to fit|truncated/);
    const structured = result.structuredContent as { results: { path: string }[]; nextCursor?: string };
    for (const hit of structured.results) seen.add(hit.path);
    cursor = structured.nextCursor;
    if (cursor) expect(cursor.length).toBeLessThan(200);
    if (!cursor) break;
  }
  expect(seen.size).toBe(120);
  // A cursor is still refused for another query.
  const first = await running.client.callTool('search', { query: 'needle', limit: 5 });
  const other = (first.structuredContent as { nextCursor?: string }).nextCursor;
  const refused = await running.client.callTool('search', { query: 'needle river', limit: 5, cursor: other });
  expect(resultText(refused)).toMatch(/^The cursor belongs to a different query/);
});
