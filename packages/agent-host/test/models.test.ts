import { describe, expect, it } from 'vitest';
import type { Message } from '../src/models/messages.js';
import type { ToolSpec } from '../src/models/model.js';
import { postToProvider } from '../src/models/provider-request.js';
import { startScriptedModel } from '../src/testing/index.js';

const tools: ToolSpec[] = [
  {
    name: 'files__read',
    description: 'Reads a file.',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { path: { $ref: '#/$defs/path' } },
      $defs: { path: { type: 'string' } },
    },
  },
];
const question: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Read a and b.' }] }];

describe.each(['openai', 'anthropic'] as const)('the %s client against the scripted model', (provider) => {
  it('assembles streamed text and several parallel tool calls from fragments', async () => {
    await using scripted = await startScriptedModel([
      {
        text: 'Reading both.',
        toolCalls: [
          { name: 'files__read', arguments: { path: 'a.txt', nested: { deep: [1, 2, 3] } } },
          { name: 'files__read', arguments: { path: 'b.txt' } },
        ],
      },
    ]);
    const deltas: string[] = [];
    const response = await scripted
      .model(provider)
      .complete({ messages: question, tools }, { onTextDelta: (text) => deltas.push(text) });
    expect(response.text).toBe('Reading both.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(response.toolCalls).toHaveLength(2);
    expect(response.toolCalls[0]).toMatchObject({
      name: 'files__read',
      arguments: { path: 'a.txt', nested: { deep: [1, 2, 3] } },
    });
    expect(response.toolCalls[1]?.arguments).toEqual({ path: 'b.txt' });
    expect(response.toolCalls[0]?.id).not.toBe(response.toolCalls[1]?.id);
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.usage.outputTokens).toBeGreaterThan(0);
    const body = scripted.requests[0]?.body;
    expect(body.stream).toBe(true);
    const schema = provider === 'openai' ? body.tools[0].function.parameters : body.tools[0].input_schema;
    expect(schema).toEqual({ type: 'object', properties: { path: { type: 'string' } } });
  });

  it('retries after a 429, waiting as long as Retry-After says, then succeeds', async () => {
    await using scripted = await startScriptedModel([
      { error: { status: 429, message: 'Slow down.', retryAfterSeconds: 1 } },
      { text: 'Done.' },
    ]);
    const started = Date.now();
    const response = await scripted.model(provider).complete({ messages: question, tools: [] });
    expect(response.text).toBe('Done.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(scripted.requests).toHaveLength(2);
  });

  it('retries a 503 without Retry-After on its own backoff', async () => {
    await using scripted = await startScriptedModel([{ error: { status: 503 } }, { text: 'Back.' }], {
      initialRetryDelayMs: 10,
    });
    expect((await scripted.model(provider).complete({ messages: question, tools: [] })).text).toBe('Back.');
  });

  it("fails a 401 at once with the provider's message and the variable to check", async () => {
    await using scripted = await startScriptedModel([
      { error: { status: 401, message: 'Incorrect API key provided.' } },
    ]);
    const variable = provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
    await expect(scripted.model(provider).complete({ messages: question, tools: [] })).rejects.toThrow(
      new RegExp(`refused the API key \\(401\\): Incorrect API key provided\\. Check ${variable}`),
    );
    expect(scripted.requests).toHaveLength(1);
  });

  it("fails a 400 with the provider's message", async () => {
    await using scripted = await startScriptedModel([{ error: { status: 400, message: 'tools.0: bad schema' } }]);
    await expect(scripted.model(provider).complete({ messages: question, tools: [] })).rejects.toMatchObject({
      code: 'MODEL_REQUEST_FAILED',
      message: expect.stringContaining('answered 400: tools.0: bad schema'),
    });
  });
});

describe('postToProvider', () => {
  it('stops reading a streamed answer past its byte cap', async () => {
    await using scripted = await startScriptedModel([{ text: 'x'.repeat(5000) }]);
    const stream = await postToProvider({
      label: 'Test API',
      keyVariable: 'TEST_KEY',
      url: `${scripted.openAIBaseUrl}/chat/completions`,
      headers: {},
      body: { model: 'scripted', stream: true, messages: [] },
      maxResponseBytes: 1000,
    });
    const read = async () => {
      for await (const _chunk of stream) {
        // Reading is the point.
      }
    };
    await expect(read()).rejects.toMatchObject({
      code: 'MODEL_RESPONSE_INVALID',
      message: 'Test API streamed more than 1000 bytes; the answer was cut off.',
    });
  });
});
