import { describe, expect, it } from 'vitest';
import type { Host } from '../host.js';
import type { Agent } from '../loop/agent.js';
import type { EventStream } from './event-stream.js';
import type { PendingQuestions } from './pending-questions.js';
import { WebSession } from './web-session.js';

/** A session over a host with one server whose prompts are counted, and an agent whose runs never end. */
function session() {
  const asked: string[] = [];
  const connection = {
    getPrompt: async (name: string) => {
      asked.push(name);
      return { messages: [{ role: 'user', content: { type: 'text', text: `The ${name} prompt.` } }] };
    },
  };
  const host = {
    connections: [],
    registry: { size: 0 },
    connection: (server: string) => (server === 'notes' ? connection : undefined),
    onRegistryChange: () => () => {},
  } as unknown as Host;
  const agent = { subscribe: () => () => {}, run: () => new Promise(() => {}) } as unknown as Agent;
  const stream = { send: () => {} } as unknown as EventStream;
  const questions = { withdrawAll: () => {} } as unknown as PendingQuestions;
  return { asked, web: new WebSession({ host, agent, stream, questions, modelName: 'scripted:test' }) };
}

describe('WebSession', () => {
  it('sends a prompt as the message, and fetches none while a run goes on', async () => {
    const { asked, web } = session();
    await expect(web.usePrompt('notes', 'summarize', {})).resolves.toBe(true);
    await expect(web.usePrompt('notes', 'review', {})).resolves.toBe(false);
    expect(asked).toEqual(['summarize']);
    await expect(web.usePrompt('other', 'review', {})).rejects.toThrow('There is no server "other".');
    web.close();
  });
});
