import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { ToolError } from '../errors.js';
import { InputPending } from './input-pending.js';
import { createInputRounds, type InputAsker, type RoundOutcome, type RoundRequest } from './input-rounds.js';
import { createRoundStateCodec, type RoundCall } from './round-state.js';

const key = 'a test key that is long enough for HMAC-SHA256!';
const everything = { elicitation: {}, sampling: {}, roots: {} };
const call: RoundCall = { method: 'tools/call', target: 'deploy', arguments: { environment: 'staging' } };
const nameForm = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const } },
  required: ['name'],
};

function engine(options: { ttlSeconds?: number; maxRounds?: number; maxRecordedBytes?: number; key?: string } = {}) {
  const codec = createRoundStateCodec({
    key: options.key ?? key,
    ...(options.ttlSeconds !== undefined ? { ttlSeconds: options.ttlSeconds } : {}),
  });
  return createInputRounds({
    codec,
    ...(options.maxRounds !== undefined ? { maxRounds: options.maxRounds } : {}),
    ...(options.maxRecordedBytes !== undefined ? { maxRecordedBytes: options.maxRecordedBytes } : {}),
  });
}

function accept(content: Record<string, unknown>) {
  return { action: 'accept', content };
}

function inputRequired<Value>(outcome: RoundOutcome<Value>) {
  if (outcome.kind !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(outcome)}`);
  return outcome.result;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

type Handler<Value> = (asker: InputAsker, signal: () => AbortSignal) => Promise<Value>;

/** Plays a client: answers every input request with `answer(key, request)` until the call completes. */
async function drive<Value>(
  rounds: ReturnType<typeof engine>,
  handler: Handler<Value>,
  answer: (key: string, method: string) => unknown,
  theCall: RoundCall = call,
): Promise<{ value: Value; rounds: number; states: string[] }> {
  const states: string[] = [];
  let request: RoundRequest = { clientCapabilities: everything };
  for (let round = 1; round <= 20; round += 1) {
    const outcome = await rounds.run(theCall, request, new AbortController().signal, handler);
    if (outcome.kind === 'complete') return { value: outcome.value, rounds: round, states };
    const { inputRequests, requestState } = outcome.result;
    states.push(requestState as string);
    request = {
      clientCapabilities: everything,
      requestState,
      inputResponses: Object.fromEntries(
        Object.entries(inputRequests ?? {}).map(([inputKey, inputRequest]) => [
          inputKey,
          answer(inputKey, inputRequest.method),
        ]),
      ),
    };
  }
  throw new Error('did not complete in 20 rounds');
}

describe('input rounds', () => {
  it('suspends at the first ask with a signed state, aborts the run with InputPending, and resumes by replay', async () => {
    const rounds = engine();
    let starts = 0;
    let after = 0;
    let abortReason: unknown;
    const handler: Handler<string> = async (asker, signal) => {
      starts += 1;
      signal().addEventListener('abort', () => {
        abortReason = signal().reason;
      });
      const answer = await asker.elicit({ message: 'Your name?', requestedSchema: nameForm });
      after += 1;
      return answer.action === 'accept' ? `hello ${answer.content?.name}` : 'no name';
    };

    const first = inputRequired(
      await rounds.run(call, { clientCapabilities: everything }, new AbortController().signal, handler),
    );
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests ?? {})).toEqual(['elicit-1']);
    expect(first.inputRequests?.['elicit-1']).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Your name?', requestedSchema: nameForm },
    });
    expect(first.requestState).toMatch(/^v1\./);
    expect(InputPending.isInstance(abortReason)).toBe(true);
    expect(after).toBe(0);

    const second = await rounds.run(
      call,
      {
        clientCapabilities: everything,
        requestState: first.requestState,
        inputResponses: { 'elicit-1': accept({ name: 'Ada' }) },
      },
      new AbortController().signal,
      handler,
    );
    expect(second).toEqual({ kind: 'complete', value: 'hello Ada' });
    // Code before the first ask runs once per round ("ask before you act").
    expect(starts).toBe(2);
    expect(after).toBe(1);
  });

  it('gathers asks made together into one round', async () => {
    const rounds = engine();
    const handler: Handler<string> = async (asker) => {
      const [name, poem, roots] = await Promise.all([
        asker.elicit({ message: 'Your name?', requestedSchema: nameForm }),
        asker.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'A poem' } }], maxTokens: 50 }),
        asker.roots(),
      ]);
      const text = poem.content;
      return `${name.action}/${Array.isArray(text) ? 'many' : text.type}/${roots.roots.length}`;
    };
    const first = inputRequired(
      await rounds.run(call, { clientCapabilities: everything }, new AbortController().signal, handler),
    );
    expect(Object.entries(first.inputRequests ?? {}).map(([inputKey, request]) => [inputKey, request.method])).toEqual([
      ['elicit-1', 'elicitation/create'],
      ['sample-2', 'sampling/createMessage'],
      ['roots-3', 'roots/list'],
    ]);

    const result = await drive(rounds, handler, (_inputKey, method) =>
      method === 'elicitation/create'
        ? accept({ name: 'Ada' })
        : method === 'roots/list'
          ? { roots: [{ uri: 'file:///work' }] }
          : { role: 'assistant', content: { type: 'text', text: 'Roses' }, model: 'test' },
    );
    expect(result).toMatchObject({ value: 'accept/text/1', rounds: 2 });
  });

  it('runs several rounds with the author’s keys, a new state each round', async () => {
    const rounds = engine();
    const handler: Handler<string> = async (asker) => {
      const step1 = await asker.elicit(
        { message: 'Step 1: What is your name?', requestedSchema: nameForm },
        { key: 'step1' },
      );
      const colorForm = {
        type: 'object' as const,
        properties: { color: { type: 'string' as const } },
        required: ['color'],
      };
      const step2 = await asker.elicit(
        { message: 'Step 2: What is your favorite color?', requestedSchema: colorForm },
        { key: 'step2' },
      );
      return `${step1.content?.name} likes ${step2.content?.color}`;
    };
    const result = await drive(rounds, handler, (inputKey) =>
      inputKey === 'step1' ? accept({ name: 'Alice' }) : accept({ color: 'blue' }),
    );
    expect(result.value).toBe('Alice likes blue');
    expect(result.rounds).toBe(3);
    expect(new Set(result.states).size).toBe(2);
  });

  it('takes an answer sent with the first request, ignores keys it did not ask for, and asks again for a missing one', async () => {
    const rounds = engine();
    const handler: Handler<string> = async (asker) => {
      const answer = await asker.elicit({ message: 'Your name?', requestedSchema: nameForm }, { key: 'user_name' });
      return String(answer.content?.name);
    };
    const direct = await rounds.run(
      call,
      {
        clientCapabilities: everything,
        inputResponses: { user_name: accept({ name: 'Ada' }), extra: { surprise: true } },
      },
      new AbortController().signal,
      handler,
    );
    expect(direct).toEqual({ kind: 'complete', value: 'Ada' });

    const wrongKey = await rounds.run(
      call,
      { clientCapabilities: everything, inputResponses: { wrong_key: accept({ data: 'wrong' }) } },
      new AbortController().signal,
      handler,
    );
    expect(Object.keys(inputRequired(wrongKey).inputRequests ?? {})).toEqual(['user_name']);
  });

  describe('refuses a request state that is not this call’s own, with -32602', () => {
    const handler: Handler<string> = async (asker) => {
      const answer = await asker.elicit({ message: 'Your name?', requestedSchema: nameForm });
      return String(answer.content?.name);
    };
    const answers = { 'elicit-1': accept({ name: 'Ada' }) };

    async function firstState(rounds = engine(), theCall = call): Promise<string> {
      const outcome = await rounds.run(
        theCall,
        { clientCapabilities: everything },
        new AbortController().signal,
        handler,
      );
      return inputRequired(outcome).requestState as string;
    }

    async function refusal(request: RoundRequest, rounds = engine(), theCall = call) {
      const error = await rejection(
        rounds.run(theCall, { clientCapabilities: everything, ...request }, new AbortController().signal, handler),
      );
      expect(error).toBeInstanceOf(ProtocolError);
      const protocolError = error as ProtocolError;
      expect(protocolError.code).toBe(ProtocolErrorCode.InvalidParams);
      expect(protocolError.message).toContain('Send the request again without requestState');
      return protocolError;
    }

    it('tampered', async () => {
      const state = await firstState();
      const error = await refusal({ requestState: `${state}-TAMPERED`, inputResponses: answers });
      expect(error.data).toEqual({ reason: 'invalid_request_state', detail: 'altered' });
      expect(error.message).toContain('altered');
      const body = state.split('.')[1] as string;
      const forged = Buffer.from(Buffer.from(body, 'base64url').toString('utf8').replace('"c":1', '"c":0')).toString(
        'base64url',
      );
      expect(
        (await refusal({ requestState: state.replace(body, forged), inputResponses: answers })).data,
      ).toMatchObject({
        detail: 'altered',
      });
      expect((await refusal({ requestState: 42, inputResponses: answers })).data).toMatchObject({ detail: 'altered' });
    });

    it('signed with another key', async () => {
      const state = await firstState(engine({ key: 'another key, also long enough for HMAC-SHA256' }));
      expect((await refusal({ requestState: state, inputResponses: answers })).data).toMatchObject({
        detail: 'altered',
      });
    });

    it('expired', async () => {
      const state = await firstState(engine({ ttlSeconds: 60 }));
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 120_000);
        const error = await refusal({ requestState: state, inputResponses: answers }, engine({ ttlSeconds: 60 }));
        expect(error.data).toMatchObject({ detail: 'expired' });
        expect(error.message).toContain('expired (it is valid for 60 s)');
      } finally {
        vi.useRealTimers();
      }
    });

    it('issued for another tool, other arguments or another method', async () => {
      const state = await firstState();
      for (const other of [
        { ...call, target: 'destroy' },
        { ...call, arguments: { environment: 'production' } },
        { method: 'prompts/get' as const, target: 'deploy', arguments: { environment: 'staging' } },
      ]) {
        const error = await refusal({ requestState: state, inputResponses: answers }, engine(), other);
        expect(error.data).toMatchObject({ detail: 'other_call' });
      }
      // Key order of the arguments does not matter.
      const reordered = await firstState(engine(), { ...call, arguments: { b: 1, a: 2 } });
      const outcome = await engine().run(
        { ...call, arguments: { a: 2, b: 1 } },
        { clientCapabilities: everything, requestState: reordered, inputResponses: answers },
        new AbortController().signal,
        handler,
      );
      expect(outcome).toEqual({ kind: 'complete', value: 'Ada' });
    });
  });

  it('refuses answers of the wrong shape and inputResponses that is not an object, with -32602', async () => {
    const rounds = engine();
    const handler: Handler<string> = async (asker) => {
      const answer = await asker.elicit({ message: 'Your name?', requestedSchema: nameForm }, { key: 'user_name' });
      return String(answer.action);
    };
    for (const request of [
      { inputResponses: { user_name: 12345 } },
      { inputResponses: { user_name: { action: 'maybe' } } },
      { inputResponses: null },
      { inputResponses: [1, 2] },
      { inputResponses: {}, droppedInputResponseKeys: ['user_name'] },
    ]) {
      const error = await rejection(
        rounds.run(call, { clientCapabilities: everything, ...request }, new AbortController().signal, handler),
      );
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
    }
  });

  it('fails a handler that asks a different question on replay, even when the handler catches the error', async () => {
    const rounds = engine();
    let run = 0;
    const handler: Handler<string> = async (asker) => {
      run += 1;
      try {
        const answer = await asker.elicit({ message: `Your name? (run ${run})`, requestedSchema: nameForm });
        return String(answer.action);
      } catch {
        return 'swallowed';
      }
    };
    const first = inputRequired(
      await rounds.run(call, { clientCapabilities: everything }, new AbortController().signal, handler),
    );
    const error = await rejection(
      rounds.run(
        call,
        {
          clientCapabilities: everything,
          requestState: first.requestState,
          inputResponses: { 'elicit-1': accept({ name: 'Ada' }) },
        },
        new AbortController().signal,
        handler,
      ),
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(ProtocolErrorCode.InternalError);
    expect((error as ProtocolError).message).toContain("asked a different question under 'elicit-1'");
  });

  it('fails a replay whose recorded answer belongs to another question', async () => {
    const rounds = engine();
    let message = 'First question?';
    const handler: Handler<string> = async (asker) => {
      await asker.elicit({ message, requestedSchema: nameForm }, { key: 'one' });
      await asker.elicit({ message: 'Second?', requestedSchema: nameForm }, { key: 'two' });
      return 'done';
    };
    const first = inputRequired(
      await rounds.run(call, { clientCapabilities: everything }, new AbortController().signal, handler),
    );
    const second = inputRequired(
      await rounds.run(
        call,
        {
          clientCapabilities: everything,
          requestState: first.requestState,
          inputResponses: { one: accept({ name: 'x' }) },
        },
        new AbortController().signal,
        handler,
      ),
    );
    message = 'A changed first question?';
    const error = await rejection(
      rounds.run(
        call,
        {
          clientCapabilities: everything,
          requestState: second.requestState,
          inputResponses: { two: accept({ name: 'y' }) },
        },
        new AbortController().signal,
        handler,
      ),
    );
    expect((error as ProtocolError).message).toContain("under 'one'");
  });

  it('refuses an ask the request did not declare the capability for with -32021, even when the handler catches', async () => {
    const rounds = engine();
    const handler: Handler<string> = async (asker) =>
      asker.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'A poem' } }], maxTokens: 50 }).then(
        () => 'sampled',
        () => 'caught',
      );
    const error = await rejection(
      rounds.run(call, { clientCapabilities: { elicitation: {} } }, new AbortController().signal, handler),
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32021);
    expect((error as ProtocolError).data).toEqual({ requiredCapabilities: { sampling: {} } });
  });

  it('stops after the round limit and the recorded-bytes limit with a sentence', async () => {
    const endless: Handler<string> = async (asker) => {
      for (let step = 0; ; step += 1) {
        await asker.elicit({ message: `Step ${step}?`, requestedSchema: nameForm });
      }
    };
    const limited = await rejection(drive(engine({ maxRounds: 3 }), endless, () => accept({ name: 'x' })));
    expect(ToolError.isInstance(limited)).toBe(true);
    expect((limited as Error).message).toContain('more than 3 times');

    const big = await rejection(
      drive(engine({ maxRecordedBytes: 2000 }), endless, () => accept({ name: 'x'.repeat(800) })),
    );
    expect(ToolError.isInstance(big)).toBe(true);
    expect((big as Error).message).toContain('exceed 2000 bytes');
  });

  it('passes a cancellation of the request on to the handler’s signal', async () => {
    const rounds = engine();
    const controller = new AbortController();
    const handler: Handler<unknown> = (_asker, signal) =>
      new Promise((_resolve, reject) => {
        signal().addEventListener('abort', () => reject(signal().reason));
      });
    const running = rounds.run(call, { clientCapabilities: everything }, controller.signal, handler);
    controller.abort(new Error('cancelled by the client'));
    const error = await rejection(running);
    expect((error as Error).message).toBe('cancelled by the client');
    expect(InputPending.isInstance(error)).toBe(false);
  });

  it('returns a result the handler completes without waiting for its asks', async () => {
    const rounds = engine();
    const outcome = await rounds.run(
      call,
      { clientCapabilities: everything },
      new AbortController().signal,
      async (asker) => {
        void asker.roots();
        return 'done';
      },
    );
    expect(outcome).toEqual({ kind: 'complete', value: 'done' });
  });

  it('completes a round whose handler answers synchronously, without waiting for it (ADR 0011)', async () => {
    const outcome = await engine().run(call, { clientCapabilities: everything }, new AbortController().signal, () => 7);
    expect(outcome).toEqual({ kind: 'complete', value: 7 });
  });

  it('still fails a synchronous handler whose ask failed, even though it answered', async () => {
    const run = engine().run(call, {}, new AbortController().signal, (asker) => {
      asker.roots().catch(() => {});
      return 'answered anyway';
    });
    await expect(run).rejects.toMatchObject({ code: ProtocolErrorCode.MissingRequiredClientCapability });
  });
});
