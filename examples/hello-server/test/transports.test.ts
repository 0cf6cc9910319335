import { fileURLToPath } from 'node:url';
import { resultText, transportsUnderTest } from '@mcpkit/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { createHelloServer } from '../src/server.js';

const bin = fileURLToPath(new URL('../bin/mcpkit-hello.js', import.meta.url));

// #region test-each-transport
const transports = transportsUnderTest({
  create: () => createHelloServer(),
  spawn: { command: process.execPath, args: [bin] },
});

describe.each(transports)('hello server over $name', ({ connect }) => {
  it('writes, reads and counts a note', async () => {
    await using client = await connect();
    await client.callTool('write_note', { name: 'plan', text: 'ship it\ntoday' });
    expect(await client.callToolText('read_note', { name: 'plan' })).toBe('ship it\ntoday');
    const stats = await client.callTool('note_stats', { name: 'plan' });
    expect(stats.structuredContent).toEqual({ name: 'plan', lines: 2, words: 3, characters: 13 });
  });

  it('asks the client model to summarize', async () => {
    await using client = await connect({
      onSample: () => ({ role: 'assistant', content: { type: 'text', text: 'A greeting.' }, model: 'scripted' }),
    });
    const result = await client.callTool('summarize_note', { name: 'welcome' });
    expect(resultText(result)).toBe('A greeting.');
  });
});
// #endregion test-each-transport
