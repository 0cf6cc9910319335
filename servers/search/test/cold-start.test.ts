import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInMemoryServer } from './in-memory-server.js';

// The probe runs the built server (`pnpm build` first), in a process of its own so that no other test has loaded
// the modules it looks for.
const probe = fileURLToPath(new URL('./cold-start-probe.mjs', import.meta.url));
const corpus = fileURLToPath(new URL('./fixtures/company/', import.meta.url));

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'mcpkit-search-cold-'));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe('cold start', () => {
  it('answers tools/list before opening the index or loading undici, pg or better-sqlite3, then opens it', () => {
    const indexFile = join(workspace, 'cache', 'index.sqlite');
    const output = execFileSync(process.execPath, [probe, indexFile, corpus], { encoding: 'utf8' });
    const report = JSON.parse(output.trim().split('\n').at(-1) as string);
    expect(report.tools).toEqual(['search', 'get_document', 'index_path', 'index_status', 'fetch_url']);
    expect(report.atToolsList).toEqual({ indexFileExists: false, modules: [] });
    expect(report.search).toMatch(/^1\. .*vacation-policy\.md:\d+/);
    expect(report.indexFileExistsAfterSearch).toBe(true);
    // An SQLite index loads its own backend only: no pg, and no undici before a fetch.
    expect(report.modulesAfterSearch).toEqual(['better-sqlite3']);
  });

  it('answers a call that needs the index with one sentence when the index cannot be opened', async () => {
    const blocker = join(workspace, 'not-a-folder');
    await writeFile(blocker, 'a file where the cache folder should be');
    const running = await startInMemoryServer({ directories: [corpus], indexFile: join(blocker, 'index.sqlite') });
    try {
      expect((await running.client.client.listTools()).tools.length).toBeGreaterThan(0);
      const result = await running.client.callTool('search', { query: 'vacation' });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([
        {
          type: 'text',
          text: expect.stringMatching(
            /^The search index \(.*not-a-folder\/index\.sqlite\) could not be opened: .*(EEXIST|ENOTDIR).*the next call tries again\.$/,
          ),
        },
      ]);
      const status = await running.client.callTool('index_status');
      expect(status.isError).toBe(true);
    } finally {
      await running.close();
    }
  });
});
