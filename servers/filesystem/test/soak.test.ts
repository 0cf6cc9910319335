import { connectTestClient, heapAfterGc } from '@mcpkit/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemServer } from '../src/index.js';
import { createFixture, type Fixture } from './fixture.js';

describe('soak', () => {
  let fixture: Fixture;
  beforeAll(() => {
    fixture = createFixture();
  });
  afterAll(() => fixture.cleanup());

  it('keeps the heap flat over thousands of concurrent cheap calls (no per-call leak)', async () => {
    const server = await createFilesystemServer({ directories: [fixture.root], logLevel: 'error' });
    const client = await connectTestClient(server);
    const calls = [
      () => client.callTool('read_text_file', { path: 'hello.txt' }),
      () => client.callTool('get_file_info', { path: 'lines.txt' }),
      () => client.callTool('list_directory', { path: '.' }),
      () => client.callTool('search_files', { path: '.', pattern: '*.md' }),
      () => client.callTool('grep', { path: 'sub', pattern: 'need+le' }),
      () =>
        client.callTool('edit_file', { path: 'hello.txt', edits: [{ oldText: 'world', newText: 'x' }], dryRun: true }),
      () => client.callTool('read_text_file', { path: 'pipe' }), // an error result
    ];
    const wave = async (size: number) => {
      const results = await Promise.all(
        Array.from({ length: size }, (_, index) => (calls[index % calls.length] as () => Promise<unknown>)()),
      );
      return results.length;
    };
    try {
      // Warm up: caches, workers and the SDK's own structures settle first.
      for (let round = 0; round < 5; round++) await wave(140);
      const before = heapAfterGc();
      let total = 0;
      for (let round = 0; round < 25; round++) total += await wave(140);
      const grown = heapAfterGc() - before;
      expect(total).toBe(3_500);
      // A leak of even a few hundred bytes per call (an abort listener left on a signal) shows as megabytes here.
      expect(grown / total, `heap grew ${grown} bytes over ${total} calls`).toBeLessThan(300);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
