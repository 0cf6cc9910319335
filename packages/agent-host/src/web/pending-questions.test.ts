import { describe, expect, it } from 'vitest';
import type { EventStream } from './event-stream.js';
import { PendingQuestions } from './pending-questions.js';
import type { PageMessage } from './protocol.js';

function questions() {
  const sent: PageMessage[] = [];
  const stream = { send: (message: PageMessage) => sent.push(message) } as unknown as EventStream;
  return { sent, pending: new PendingQuestions(stream) };
}

const idOf = (message: PageMessage | undefined) => (message?.type === 'question' ? message.question.id : '');

describe('PendingQuestions', () => {
  it('resolves an approval with the first answer and closes it on every page', async () => {
    const { sent, pending } = questions();
    const answer = pending.approve({
      server: 'demo',
      tool: 'book_table',
      modelName: 'demo__book_table',
      arguments: { restaurant: 'Casa Ana' },
      annotations: { destructiveHint: false },
      policy: 'ask',
    });
    const id = idOf(sent[0]);
    expect(sent[0]).toMatchObject({ type: 'question', question: { kind: 'approval', destructive: false } });
    expect(pending.answer({ id, kind: 'elicitation', action: 'accept' })).toBe(false);
    expect(pending.answer({ id, kind: 'approval', answer: 'always' })).toBe(true);
    expect(pending.answer({ id, kind: 'approval', answer: 'no' })).toBe(false);
    await expect(answer).resolves.toBe('always');
    expect(sent[1]).toEqual({ type: 'question-closed', id, outcome: 'answered' });
  });

  it('refuses an approval whose run is cancelled, and cancels forms when the run is stopped', async () => {
    const { sent, pending } = questions();
    const controller = new AbortController();
    const approval = pending.approve({
      server: 'demo',
      tool: 'write',
      modelName: 'demo__write',
      arguments: {},
      annotations: undefined,
      policy: 'ask',
      signal: controller.signal,
    });
    const form = pending.elicit({
      server: 'demo',
      message: 'Name?',
      schema: { properties: { name: { type: 'string' } } },
    });
    controller.abort();
    await expect(approval).resolves.toBe('no');
    expect(sent.filter((message) => message.type === 'question-closed')).toHaveLength(1);
    pending.withdrawAll();
    await expect(form).resolves.toEqual({ action: 'cancel' });
  });

  it('takes a form answer only with field values of the allowed types', async () => {
    const { sent, pending } = questions();
    const form = pending.elicit({ server: 'demo', message: 'Name?', schema: {} });
    const id = idOf(sent[0]);
    expect(
      pending.answer({
        id,
        kind: 'elicitation',
        action: 'accept',
        content: { name: { nested: 1 } as unknown as string },
      }),
    ).toBe(false);
    expect(pending.answer({ id, kind: 'elicitation', action: 'accept', content: { name: 'Ada', guests: 4 } })).toBe(
      true,
    );
    await expect(form).resolves.toEqual({ action: 'accept', content: { name: 'Ada', guests: 4 } });
  });
});
