import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resultText, spawnTestClient } from '@mcpkit/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { heavyTestTimeout, serverForEachTest } from './connected-server.js';
import { longestHoldWhile } from './responsiveness.js';

const bin = fileURLToPath(new URL('../bin/mcpkit-filesystem.js', import.meta.url));

// Files a hostile folder holds, edited by a model: the text work stays off the main thread.
describe('hostile files to edit', () => {
  const connected = serverForEachTest();

  it('edits a 10 MB file of five million CRLF line breaks without holding the event loop', {
    timeout: heavyTestTimeout,
  }, async () => {
    // Telling CRLF from LF, and putting the CRs back, split and rewrote the whole text on the main thread: about
    // 1.3 s and 0.9 s here on a quiet machine. Only the decoding and the write may stay there (tens of ms).
    const file = join(connected.fixture.root, 'crlf.txt');
    writeFileSync(file, `${'\r\n'.repeat(4_999_000)}end\r\n`);
    const edit = connected.client.callTool('edit_file', {
      path: 'crlf.txt',
      edits: [{ oldText: 'end', newText: 'END' }],
    });
    const held = await longestHoldWhile(edit);
    const result = await edit;
    expect(result.isError, resultText(result)).not.toBe(true);
    const written = readFileSync(file, 'latin1');
    expect(written.length).toBe(4_999_000 * 2 + 5);
    expect(written.endsWith('\r\n\r\nEND\r\n')).toBe(true);
    expect(held, 'longest ms the event loop was held').toBeLessThan(400);
  });

  it('refuses to edit a file that is not UTF-8, leaving its bytes as they were', async () => {
    // Decoded as UTF-8 and written back, every byte of a Latin-1 file that is not valid UTF-8 became U+FFFD (three
    // bytes), in every line, edited or not.
    const file = join(connected.fixture.root, 'latin1.txt');
    const original = Buffer.from('caf\xe9 cr\xe8me\nprice: 3\n', 'latin1');
    writeFileSync(file, original);
    const result = await connected.client.callTool('edit_file', {
      path: 'latin1.txt',
      edits: [{ oldText: 'price: 3', newText: 'price: 4' }],
    });
    expect(readFileSync(file)).toEqual(original);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^latin1\.txt is not valid UTF-8/);
  });

  it('refuses edits whose result would pass 10 MB before building it, and the server lives on', {
    timeout: heavyTestTimeout,
  }, async () => {
    // replaceAll of one character by 300 in a 1 MB file built a 300 MB text in the worker: past its 512 MB heap, V8
    // ended the whole process (FATAL ERROR: Reached heap limit), not only the worker. Run from the bin, so a crash
    // is a closed connection instead of the test runner's own end.
    writeFileSync(join(connected.fixture.root, 'amplified.txt'), 'a'.repeat(1_000_000));
    const spawned = await spawnTestClient({
      command: process.execPath,
      args: [bin, '--log-level', 'error', connected.fixture.root],
    });
    try {
      for (const edits of [
        [{ oldText: 'a', newText: 'b'.repeat(300), replaceAll: true }],
        // Each edit doubles the text: the size is checked edit by edit, not only at the end.
        Array.from({ length: 30 }, (_, index) => ({
          oldText: index % 2 === 0 ? 'a' : 'c',
          newText: index % 2 === 0 ? 'cc' : 'aa',
          replaceAll: true,
        })),
      ]) {
        const result = await spawned.callTool('edit_file', { path: 'amplified.txt', edits });
        expect(result.isError).toBe(true);
        expect(resultText(result)).toMatch(
          /^The edits would make the file [\d,]+ characters long; edit_file writes at most 10 MB/,
        );
      }
      expect(readFileSync(join(connected.fixture.root, 'amplified.txt'), 'utf8')).toBe('a'.repeat(1_000_000));
      expect(resultText(await spawned.callTool('read_text_file', { path: 'hello.txt' }))).toBe('hello\nworld');
    } finally {
      await spawned.close();
    }
  });
});
