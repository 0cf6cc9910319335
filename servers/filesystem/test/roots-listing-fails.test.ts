import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connectTestClient, resultText } from '@mcpkit/server-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createFilesystemServer } from '../src/index.js';

describe('a client whose roots cannot be listed (ADR 0101)', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpkit-fs-roots-'));
  const chosen = join(root, 'chosen');
  mkdirSync(chosen);
  writeFileSync(join(chosen, 'inside.txt'), 'inside the roots');
  writeFileSync(join(root, 'outside.txt'), 'outside the roots');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fails the call with a sentence instead of falling back to every configured directory', async () => {
    const server = await createFilesystemServer({ directories: [root], logLevel: 'emergency' });
    await using client = await connectTestClient(server, {
      era: '2025-11-25',
      roots: [{ uri: pathToFileURL(chosen).href }],
    });
    const read = (path: string) => client.callTool('read_text_file', { path });
    expect(resultText(await read(join(chosen, 'inside.txt')))).toBe('inside the roots');
    expect((await read(join(root, 'outside.txt'))).isError).toBe(true);

    client.client.setRequestHandler('roots/list', () => {
      throw new Error('the roots store is unavailable');
    });
    await client.client.sendRootsListChanged();
    const failed = await read(join(root, 'outside.txt'));
    expect(failed.isError).toBe(true);
    expect(resultText(failed)).toContain("The client's roots could not be listed");
    expect(resultText(failed)).not.toContain('outside the roots');
    await server.close();
  });
});
