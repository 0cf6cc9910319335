import { describe, expect, it } from 'vitest';
import { connectHost } from '../src/host.js';
import { createAgent } from '../src/loop/agent.js';
import type { AgentEvent } from '../src/loop/agent-events.js';
import { samplingHandler } from '../src/loop/sampling.js';
import { startScriptedModel } from '../src/testing/index.js';
import { fixtureServer, textOf } from './helpers.js';

const quiet = { log: () => {} };

describe.each(['openai', 'anthropic'] as const)('the agent loop over %s', (provider) => {
  it('runs the calls of one turn concurrently, reports events, and answers', async () => {
    await using scripted = await startScriptedModel([
      {
        toolCalls: [
          { name: 'work__slow', arguments: { ms: 2500 } },
          { name: 'work__slow', arguments: { ms: 2500 } },
          { name: 'work__echo', arguments: { text: 'hi' } },
        ],
      },
      { text: 'Results: {{tool_results}}' },
    ]);
    await using host = await connectHost({ servers: [fixtureServer('work', 'echo-server.mjs')] }, quiet);
    const agent = createAgent({ host, model: scripted.model(provider) });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.run('Do the work.');
    expect(result.stoppedBy).toBe('answer');
    expect(result.steps).toBe(2);
    expect(result.answer).toBe('Results: waited 2500 ms\nwaited 2500 ms\nwork: hi');
    // In sequence the two slow calls take at least 5,000 ms; 2 s of margin absorb a loaded machine.
    const step = events.find((event) => event.type === 'step-end' && event.step === 1);
    expect(step && step.type === 'step-end' && step.durationMs).toBeLessThan(4_500);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    const ends = events.filter((event) => event.type === 'tool-call-end');
    expect(ends).toHaveLength(3);
    expect(ends.find((event) => event.type === 'tool-call-end' && event.tool === 'slow')).toMatchObject({
      server: 'work',
      name: 'work__slow',
      isError: false,
    });
    expect(events.map((event) => event.type).filter((type) => type !== 'text-delta')).toEqual([
      'step-start',
      'model-response',
      'tool-call-start',
      'tool-call-start',
      'tool-call-start',
      'tool-call-end',
      'tool-call-end',
      'tool-call-end',
      'step-end',
      'step-start',
      'model-response',
      'step-end',
      'answer',
    ]);
  });

  it('gives every tool call exactly one result, errors included, before the next request', async () => {
    await using scripted = await startScriptedModel([
      {
        toolCalls: [
          { name: 'work__fail' },
          { name: 'work__no_such_tool' },
          { name: 'work__slow', arguments: { ms: 30_000 } },
          { name: 'work__echo', arguments: { text: 42 } },
          { name: 'work__echo', arguments: { text: 'fine' } },
        ],
      },
      { text: 'Recovered.' },
    ]);
    await using host = await connectHost({ servers: [fixtureServer('work', 'echo-server.mjs')] }, quiet);
    const agent = createAgent({ host, model: scripted.model(provider), toolTimeoutMs: 2000 });
    const result = await agent.run('Try everything.');
    expect(result.answer).toBe('Recovered.');
    const toolMessage = result.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.role === 'tool' && toolMessage.results.map((entry) => entry.isError)).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
    const texts = toolMessage?.role === 'tool' ? toolMessage.results.map((entry) => entry.content[0]) : [];
    expect(texts[0]).toMatchObject({ text: 'This tool always fails.' });
    expect(texts[1]).toMatchObject({ text: expect.stringContaining('no tool named "work__no_such_tool"') });
    expect(texts[2]).toMatchObject({ text: expect.stringContaining('did not answer within 2000 ms') });
    expect(texts[3]).toMatchObject({ text: expect.stringContaining('Invalid arguments') });
    const second = scripted.requests[1]?.body;
    const ids =
      provider === 'openai'
        ? second.messages
            .filter((message: { role: string }) => message.role === 'tool')
            .map((m: { tool_call_id: string }) => m.tool_call_id)
        : second.messages.at(-1).content.map((block: { tool_use_id: string }) => block.tool_use_id);
    const calls = result.messages[1];
    expect(ids).toEqual(calls?.role === 'assistant' ? calls.toolCalls.map((call) => call.id) : []);
  });

  it('stops at the step limit with synthesized results and asks for a final answer without tools', async () => {
    await using scripted = await startScriptedModel([
      { toolCalls: [{ name: 'work__echo', arguments: { text: 'one' } }] },
      { toolCalls: [{ name: 'work__echo', arguments: { text: 'two' } }] },
      { text: 'Best effort.' },
    ]);
    await using host = await connectHost({ servers: [fixtureServer('work', 'echo-server.mjs')] }, quiet);
    const agent = createAgent({ host, model: scripted.model(provider), maxSteps: 2 });
    const calls: string[] = [];
    agent.subscribe((event) => {
      if (event.type === 'tool-call-start') calls.push(String(event.arguments.text));
    });
    const result = await agent.run('Loop forever.');
    expect(result).toMatchObject({ answer: 'Best effort.', stoppedBy: 'step-limit', steps: 3 });
    expect(calls).toEqual(['one']);
    const final = scripted.requests[2]?.body;
    expect(provider === 'openai' ? final.tool_choice : final.tool_choice.type).toBe('none');
    expect(JSON.stringify(final.messages)).toContain('limit of 2 tool steps was reached');
  });

  it('passes images from tool results the way the provider accepts them', async () => {
    await using scripted = await startScriptedModel([{ toolCalls: [{ name: 'work__picture' }] }, { text: 'A pixel.' }]);
    await using host = await connectHost({ servers: [fixtureServer('work', 'echo-server.mjs')] }, quiet);
    await createAgent({ host, model: scripted.model(provider) }).run('Show me.');
    const messages = scripted.requests[1]?.body.messages;
    if (provider === 'openai') {
      const last = messages.at(-1);
      expect(last.role).toBe('user');
      expect(last.content[1].image_url.url).toMatch(/^data:image\/png;base64,iVBOR/);
    } else {
      const block = messages.at(-1).content[0];
      expect(block.type).toBe('tool_result');
      expect(block.content[0]).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });
    }
  });
});

describe('the agent loop with server requests', () => {
  it('cancels a run: calls in flight end with an error result and the server is told', async () => {
    await using scripted = await startScriptedModel([
      { toolCalls: [{ name: 'work__slow', arguments: { ms: 30_000 } }] },
    ]);
    await using host = await connectHost({ servers: [fixtureServer('work', 'echo-server.mjs')] }, quiet);
    const agent = createAgent({ host, model: scripted.model() });
    const controller = new AbortController();
    agent.subscribe((event) => {
      if (event.type === 'tool-call-start') setTimeout(() => controller.abort(), 100);
    });
    const result = await agent.run('Wait.', { signal: controller.signal });
    expect(result.stoppedBy).toBe('cancelled');
    const last = result.messages.at(-1);
    expect(last?.role === 'tool' && last.results[0]?.isError).toBe(true);
    await expect
      .poll(async () => (await host.call('work', 'cancelled_count', {})).content)
      .toEqual([{ type: 'text', text: '1' }]);
  });

  it('cancels a run while the model is still answering', async () => {
    await using scripted = await startScriptedModel([{ text: 'Too late.', delayMs: 20_000 }]);
    await using host = await connectHost({ servers: [] }, quiet);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await createAgent({ host, model: scripted.model() }).run('Hello?', { signal: controller.signal });
    expect(result).toMatchObject({ stoppedBy: 'cancelled', answer: '', steps: 0 });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers sampling with the host model when allowed, and refuses it when denied', async () => {
    await using scripted = await startScriptedModel([
      { toolCalls: [{ name: 'work__summarize', arguments: { text: 'a long text' } }] },
      { text: 'short' },
      { text: '{{tool_results}}' },
    ]);
    const model = scripted.model();
    await using host = await connectHost(
      { servers: [fixtureServer('work', 'echo-server.mjs')] },
      { ...quiet, sample: samplingHandler({ policy: 'allow', model }) },
    );
    const result = await createAgent({ host, model }).run('Summarize.');
    expect(result.answer).toBe('summary: short');
    expect(JSON.stringify(scripted.requests[1]?.body.messages)).toContain('Summarize: a long text');

    await using denied = await connectHost(
      { servers: [fixtureServer('work', 'echo-server.mjs')] },
      { ...quiet, sample: samplingHandler({ policy: 'deny', model }) },
    );
    const refused = await denied.call('work', 'summarize', { text: 'x' });
    expect(refused.isError).toBe(true);
    // One sentence. A 2025-11-25 server reads the refusal and words it ("sampling refused: ..."); in the 2026-07-28
    // era the refusal of an embedded request ends the call on the host's side with the same sentence.
    const refusedBy = '(sampling refused: (MCP error -1: )?|Tool "summarize" of server "work" failed: )';
    expect(textOf(refused)).toMatch(
      new RegExp(`^${refusedBy}The host declined the sampling request of server "work" \\(--sampling deny\\)\\.$`),
    );

    await using asked = await connectHost(
      { servers: [fixtureServer('work', 'echo-server.mjs')] },
      { ...quiet, sample: samplingHandler({ policy: 'ask', model }) },
    );
    expect(textOf(await asked.call('work', 'summarize', { text: 'x' }))).toMatch(
      new RegExp(
        `^${refusedBy}The host declined the sampling request of server "work" because no one can be asked here \\(--sampling allow lets servers use the model\\)\\.$`,
      ),
    );

    const confirmed: string[] = [];
    await using consenting = await connectHost(
      { servers: [fixtureServer('work', 'echo-server.mjs')] },
      {
        ...quiet,
        sample: samplingHandler({
          policy: 'ask',
          model,
          confirm: async (request) => {
            confirmed.push(request.messages[0]?.text ?? '');
            return false;
          },
        }),
      },
    );
    expect(JSON.stringify((await consenting.call('work', 'summarize', { text: 'y' })).content)).toContain(
      'The user declined the sampling request of server \\"work\\"',
    );
    expect(confirmed).toEqual(['Summarize: y']);
  });

  it('asks the user to fill in a form when a handler is given', async () => {
    await using host = await connectHost(
      { servers: [fixtureServer('work', 'echo-server.mjs')] },
      {
        ...quiet,
        elicit: async (request) => {
          expect(request.schema.properties?.name).toMatchObject({ type: 'string' });
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    );
    expect((await host.call('work', 'ask_user', {})).content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });
});
