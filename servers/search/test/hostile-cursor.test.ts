import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';

let directory: string;
let running: InMemoryServer;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcpkit-search-cursor-'));
  for (let note = 0; note < 12; note++) await writeFile(join(directory, `note-${note}.md`), `needle ${note}\n`);
  running = await startInMemoryServer({ directories: [directory] });
});
afterAll(async () => {
  await running.close();
  await rm(directory, { recursive: true, force: true });
});

/** A cursor the model wrote itself: base64url JSON, as the server's own are, with the digest of its query. */
const forged = (state: { offset: number; query: string }) =>
  Buffer.from(
    JSON.stringify({ ...state, query: createHash('sha256').update(state.query).digest('base64url').slice(0, 22) }),
  ).toString('base64url');

it.each([
  ['a negative offset', -3],
  ['a fractional offset', 2.5],
  ['an offset past the paged results', 1e12],
])('a forged cursor with %s is refused in one sentence, not answered with odd ranks', async (_name, offset) => {
  // Before: -3 answered two hits ranked -2 and -1, 2.5 a page ranked from 3.5, 1e12 scored every match to say
  // "No more results".
  const result = await running.client.callTool('search', {
    query: 'needle',
    limit: 5,
    cursor: forged({ offset, query: 'needle' }),
  });
  expect(result.isError).toBe(true);
  expect(resultText(result)).toMatch(/^The cursor is not valid/);
});

it("the server's own cursors still page", async () => {
  const first = await running.client.callTool('search', { query: 'needle', limit: 5 });
  const cursor = (first.structuredContent as { nextCursor?: string }).nextCursor;
  const second = await running.client.callTool('search', { query: 'needle', limit: 5, cursor });
  expect(second.isError).toBeFalsy();
  expect(resultText(second)).toMatch(/^6\. /);
});
