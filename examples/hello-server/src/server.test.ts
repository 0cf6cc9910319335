import { connectTestClient, resultText } from '@mcpkit/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { createHelloServer } from './server.js';

const longNote = Array.from({ length: 400 }, (_, index) => `line ${index} of a long note`).join('\n');

// #region test-in-memory
describe('hello server', () => {
  it('greets, with the configured greeting', async () => {
    await using client = await connectTestClient(createHelloServer({ greeting: 'Hi' }));
    expect(await client.callToolText('greet', { name: 'Ada' })).toBe('Hi, Ada!');
  });

  it('answers an unknown note with a sentence the model can act on', async () => {
    await using client = await connectTestClient(createHelloServer());
    const result = await client.callTool('read_note', { name: 'nope' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('There is no note named "nope"; the notes are: welcome.');
  });
});
// #endregion test-in-memory

describe('read_note', () => {
  it('pages through a long note with the offset the truncation note gives', async () => {
    await using client = await connectTestClient(createHelloServer({ notes: [{ name: 'long', text: longNote }] }));
    let offset = 0;
    let collected = '';
    for (let page = 0; page < 20; page += 1) {
      const text = await client.callToolText('read_note', { name: 'long', offset, limit: 1000 });
      const next = /Call read_note again with offset=(\d+)\./.exec(text)?.[1];
      collected += next ? text.slice(0, text.lastIndexOf('\n[truncated')) : text;
      if (!next) break;
      offset = Number(next);
    }
    expect(collected).toBe(longNote);
  });

  it('refuses a limit outside its bounds with a readable error', async () => {
    await using client = await connectTestClient(createHelloServer());
    const result = await client.callTool('read_note', { name: 'welcome', limit: 5 });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('limit');
  });
});

describe('note_stats', () => {
  it('returns structured content that matches its output schema', async () => {
    await using client = await connectTestClient(createHelloServer({ notes: [{ name: 'a', text: 'one two\nthree' }] }));
    const result = await client.callTool('note_stats', { name: 'a' });
    expect(result.structuredContent).toEqual({ name: 'a', lines: 2, words: 3, characters: 13 });
  });
});

describe('write_note and delete_note', () => {
  it('tells subscribed clients that a note changed', async () => {
    await using client = await connectTestClient(createHelloServer());
    await client.client.subscribeResource({ uri: 'notes://todo' });
    expect(await client.callToolText('write_note', { name: 'todo', text: 'buy milk' })).toBe(
      'Saved note "todo" (8 characters).',
    );
    await expect
      .poll(() => client.notifications.map((notification) => notification.method))
      .toContain('notifications/resources/updated');
    expect((await client.client.readResource({ uri: 'notes://todo' })).contents[0]).toMatchObject({ text: 'buy milk' });
  });

  it('refuses a bad note name', async () => {
    await using client = await connectTestClient(createHelloServer());
    const result = await client.callTool('write_note', { name: '../etc/passwd', text: 'x' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('use 1 to 40 lowercase letters');
  });

  // #region test-elicitation
  it('deletes only when the user confirms', async () => {
    await using declining = await connectTestClient(createHelloServer(), { onElicit: () => ({ action: 'decline' }) });
    expect(await declining.callToolText('delete_note', { name: 'welcome' })).toBe('Kept the note "welcome".');

    await using confirming = await connectTestClient(createHelloServer(), {
      onElicit: () => ({ action: 'accept', content: { confirm: true } }),
    });
    expect(await confirming.callToolText('delete_note', { name: 'welcome' })).toBe('Deleted the note "welcome".');
  });
  // #endregion test-elicitation

  it('refuses to delete from a client that cannot ask the user', async () => {
    await using client = await connectTestClient(createHelloServer());
    const result = await client.callTool('delete_note', { name: 'welcome' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('cannot ask the user to confirm');
  });
});

describe('summarize_note', () => {
  it("asks the client's model and reports progress", async () => {
    await using client = await connectTestClient(createHelloServer(), {
      onSample: () => ({ role: 'assistant', content: { type: 'text', text: 'A welcome.' }, model: 'scripted' }),
    });
    const progress: number[] = [];
    const result = await client.client.callTool({ name: 'summarize_note', arguments: { name: 'welcome' } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(resultText(result as never)).toBe('A welcome.');
    expect(progress).toEqual([0, 2]);
  });
});

describe('resources and prompts', () => {
  it('lists notes as resources, completes names, and renders the review prompt', async () => {
    await using client = await connectTestClient(
      createHelloServer({
        notes: [
          { name: 'alpha', text: 'A' },
          { name: 'beta', text: 'B' },
        ],
      }),
    );
    const { resources } = await client.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['notes://index', 'notes://alpha', 'notes://beta']);
    const { completion } = await client.client.complete({
      ref: { type: 'ref/resource', uri: 'notes://{name}' },
      argument: { name: 'name', value: 'b' },
    });
    expect(completion.values).toEqual(['beta']);
    const prompt = await client.client.getPrompt({ name: 'review_note', arguments: { name: 'alpha', tone: 'gentle' } });
    expect(prompt.messages[1]?.content).toEqual({
      type: 'text',
      text: 'Review the note above for clarity, in a gentle tone.',
    });
  });
});
