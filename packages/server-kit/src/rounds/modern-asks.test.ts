import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolError } from '../errors.js';
import { createInputRounds, type RoundRequest } from './input-rounds.js';
import { createModernAsks, type ModernAsks } from './modern-asks.js';
import { createRoundStateCodec, type RoundCall } from './round-state.js';

const rounds = createInputRounds({ codec: createRoundStateCodec({ key: 'k'.repeat(32) }) });
const call: RoundCall = { method: 'tools/call', target: 'greet', arguments: {} };
const everything = { elicitation: {}, sampling: {}, roots: {} };

async function once<Value>(request: RoundRequest, handler: (asks: ModernAsks) => Promise<Value>) {
  return rounds.run(call, request, new AbortController().signal, (asker) =>
    handler(createModernAsks(asker, request.clientCapabilities)),
  );
}

describe('modern asks', () => {
  it('sends the zod form as JSON Schema and checks the accepted answer with zod', async () => {
    const form = z.object({ name: z.string().min(2) });
    const ask = (asks: ModernAsks) => asks.elicit('Your name?', form, { key: 'user_name' });
    const first = await once({ clientCapabilities: everything }, ask);
    expect(first.kind === 'input_required' && first.result.inputRequests?.user_name).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', required: ['name'] } },
    });
    const good = await once(
      { clientCapabilities: everything, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } },
      ask,
    );
    expect(good).toEqual({ kind: 'complete', value: { action: 'accept', content: { name: 'Ada' } } });
    const declined = await once(
      { clientCapabilities: everything, inputResponses: { user_name: { action: 'decline' } } },
      ask,
    );
    expect(declined).toEqual({ kind: 'complete', value: { action: 'decline' } });
    const bad = once(
      { clientCapabilities: everything, inputResponses: { user_name: { action: 'accept', content: { name: 'A' } } } },
      ask,
    );
    await expect(bad).rejects.toThrow(ToolError);
    await expect(bad).rejects.toThrow(/The answer to the form was not valid: name:/);
  });

  it('turns a bare prompt into a sampling request, and gives undefined roots to a client without roots', async () => {
    const first = await once({ clientCapabilities: everything }, (asks) =>
      asks.sample({ prompt: 'Say hi', maxTokens: 5 }),
    );
    expect(first.kind === 'input_required' && first.result.inputRequests?.['sample-1']).toEqual({
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 5 },
    });
    expect(await once({ clientCapabilities: { sampling: {} } }, (asks) => asks.roots())).toEqual({
      kind: 'complete',
      value: undefined,
    });
    const roots = await once(
      { clientCapabilities: everything, inputResponses: { 'roots-1': { roots: [{ uri: 'file:///srv' }] } } },
      (asks) => asks.roots(),
    );
    expect(roots).toEqual({ kind: 'complete', value: [{ uri: 'file:///srv' }] });
  });
});
