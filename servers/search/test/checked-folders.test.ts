import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type InMemoryServer, startInMemoryServer } from './in-memory-server.js';

let workspace: string;
let running: InMemoryServer | undefined;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'mcpkit-search-checked-'));
});
afterEach(async () => {
  await running?.close();
  running = undefined;
  await rm(workspace, { recursive: true, force: true });
});

it('serves the folders it checked at start, even when a link to one is swapped before the index opens', async () => {
  await mkdir(join(workspace, 'checked'));
  await mkdir(join(workspace, 'other'));
  await writeFile(join(workspace, 'checked', 'apples.md'), 'the orchard keeps apples\n');
  await writeFile(join(workspace, 'other', 'secrets.md'), 'the orchard keeps secrets\n');
  const link = join(workspace, 'documents');
  await symlink(join(workspace, 'checked'), link);
  running = await startInMemoryServer({ directories: [link] });
  // The index opens on the first call (or after the first tools/list): by then the link points elsewhere.
  await unlink(link);
  await symlink(join(workspace, 'other'), link);
  const text = resultText(await running.client.callTool('search', { query: 'orchard' }));
  expect(text).toContain('apples.md');
  expect(text).not.toContain('secrets.md');
});
