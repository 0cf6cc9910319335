import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer } from './create-server.js';
import { defineTool } from './define-tool.js';
import { KitError } from './errors.js';
import { json, text } from './results.js';
import { connectTestClient, resultText } from './testing/index.js';

const weather = defineTool({
  name: 'get_weather',
  title: 'Weather',
  description: 'The weather in a city.',
  input: z.object({ city: z.string() }),
  output: z.object({ city: z.string(), celsius: z.number() }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: ({ city }) => ({ city, celsius: city === 'Oslo' ? -3 : 21 }),
});

const liar = defineTool({
  name: 'lie',
  description: 'Returns a value that breaks its own output schema.',
  output: z.object({ count: z.number() }),
  handler: () => ({ count: 'many' }) as never,
});

const explained = defineTool({
  name: 'explained',
  description: 'Returns a full result with structured content.',
  output: z.object({ total: z.number() }),
  handler: () => ({ ...text('Three in all.'), structuredContent: { total: 3 } }),
});

describe('output schemas', () => {
  it('lists the output schema and title, and sends the value as structuredContent plus JSON text', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [weather] }));
    const [tool] = (await client.client.listTools()).tools;
    expect(tool?.title).toBe('Weather');
    expect(tool?.outputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
    });
    expect(tool?.outputSchema).toHaveProperty('$schema', 'https://json-schema.org/draft/2020-12/schema');
    expect(tool?.inputSchema).toHaveProperty('$schema', 'https://json-schema.org/draft/2020-12/schema');
    const result = await client.callTool('get_weather', { city: 'Oslo' });
    expect(result.structuredContent).toEqual({ city: 'Oslo', celsius: -3 });
    expect(JSON.parse(resultText(result))).toEqual({ city: 'Oslo', celsius: -3 });
  });

  it('keeps the text of a full result and checks its structuredContent', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [explained] }));
    const result = await client.callTool('explained');
    expect(resultText(result)).toBe('Three in all.');
    expect(result.structuredContent).toEqual({ total: 3 });
  });

  it('turns a value that breaks the output schema into a short internal error, logged for the developer', async () => {
    await using client = await connectTestClient(
      createServer({ name: 't', version: '1', tools: [liar], logLevel: 'emergency' }),
    );
    const result = await client.callTool('lie');
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(resultText(result)).toContain('internal error');
  });
});

describe('handler return values', () => {
  it('shapes a plain object as JSON with structuredContent, and nothing as an empty result', async () => {
    const plain = defineTool({ name: 'plain', description: 'x', handler: () => ({ ok: true }) });
    const empty = defineTool({ name: 'empty', description: 'x', handler: () => undefined as never });
    const helper = defineTool({ name: 'helper', description: 'x', handler: () => json({ rows: 2 }, { indent: 0 }) });
    await using client = await connectTestClient(
      createServer({ name: 't', version: '1', tools: [plain, empty, helper] }),
    );
    expect(await client.callTool('plain')).toMatchObject({ structuredContent: { ok: true } });
    expect((await client.callTool('empty')).content).toEqual([]);
    expect(await client.callTool('helper')).toEqual({
      content: [{ type: 'text', text: '{"rows":2}' }],
      structuredContent: { rows: 2 },
    });
  });

  it('answers arguments that fail the schema with every problem listed', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [weather] }));
    const result = await client.callTool('get_weather', { city: 7, extra: true });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^Invalid arguments for tool "get_weather": city: .+\.$/);
  });
});

describe('async input schemas', () => {
  it('checks arguments with async refinements too', async () => {
    const claim = defineTool({
      name: 'claim',
      description: 'Claims a user name.',
      input: z.object({ user: z.string().refine(async (value) => value !== 'taken', 'is already taken') }),
      handler: ({ user }) => `claimed ${user}`,
    });
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [claim] }));
    expect(await client.callToolText('claim', { user: 'free' })).toBe('claimed free');
    const refused = await client.callTool('claim', { user: 'taken' });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toBe('Invalid arguments for tool "claim": user: is already taken.');
  });
});

describe('definition checks', () => {
  it('accepts names by the spec rule and refuses others with INVALID_NAME', () => {
    for (const name of ['a', 'get.weather', 'A-b_c.1', 'x'.repeat(128)]) {
      expect(defineTool({ name, description: 'x', handler: () => '' }).name).toBe(name);
    }
    for (const name of ['', 'x'.repeat(129), 'has space', 'slash/name', 'émoji']) {
      expect(() => defineTool({ name, description: 'x', handler: () => '' })).toThrow(
        expect.objectContaining({ code: 'INVALID_NAME' }),
      );
    }
  });

  it('requires a description, because the model reads it', () => {
    expect(() => defineTool({ name: 'mute', description: '  ', handler: () => '' })).toThrow(KitError);
  });

  it('rejects a duplicate tool added at run time', () => {
    const server = createServer({ name: 't', version: '1', tools: [weather] });
    expect(() => server.addTool(weather)).toThrow(expect.objectContaining({ code: 'DUPLICATE_NAME' }));
    expect(server.removeTool('get_weather')).toBe(true);
    expect(server.removeTool('get_weather')).toBe(false);
  });
});

/** The schema of the conformance scenario json-schema-2020-12: what zod cannot express. */
const contactSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a promise.
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as const;

const contact = defineTool({
  name: 'add_contact',
  description: 'Adds a contact.',
  inputJsonSchema: contactSchema,
  handler: (args) => `added ${JSON.stringify(args)}`,
});

describe('inputJsonSchema', () => {
  it('is advertised verbatim in tools/list, $schema, $defs, $anchor and if/then/else included', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [contact] }));
    const [tool] = (await client.client.listTools()).tools;
    expect(tool?.inputSchema).toEqual(contactSchema);
  });

  it('checks the arguments at call time: valid ones reach the handler, others get a readable isError sentence', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools: [contact] }));
    const valid = { name: 'Ada', contactMethod: 'phone', phone: '555', address: { city: 'Oslo' } };
    expect(await client.callToolText('add_contact', valid)).toBe(`added ${JSON.stringify(valid)}`);
    const wrongType = await client.callTool('add_contact', { email: 'a@b', address: { city: 3 } });
    expect(wrongType.isError).toBe(true);
    expect(resultText(wrongType)).toBe('Invalid arguments for tool "add_contact": address.city: must be string.');
    const missing = await client.callTool('add_contact', { contactMethod: 'phone', email: 'a@b' });
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toContain("(root): must have required property 'phone'");
    const extra = await client.callTool('add_contact', { email: 'a@b', nickname: 'x' });
    expect(resultText(extra)).toContain('(root): must NOT have additional properties');
  });

  it('is a KitError at definition time with input too, without type "object", or when it does not compile', () => {
    const both = { name: 'both', description: 'x', input: z.object({}), inputJsonSchema: { type: 'object' as const } };
    expect(() => defineTool({ ...both, handler: () => '' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_DEFINITION',
        message: expect.stringContaining('both input and inputJsonSchema'),
      }),
    );
    const notObject = { type: 'string' } as unknown as { type: 'object' };
    expect(() => defineTool({ name: 'flat', description: 'x', inputJsonSchema: notObject, handler: () => '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION' }),
    );
    const broken = { type: 'object' as const, properties: { a: { type: 12 } } };
    expect(() => defineTool({ name: 'broken', description: 'x', inputJsonSchema: broken, handler: () => '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION', message: expect.stringContaining('does not compile') }),
    );
    const dialect = { $schema: 'https://example.com/my-dialect', type: 'object' as const };
    expect(() => defineTool({ name: 'odd', description: 'x', inputJsonSchema: dialect, handler: () => '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION' }),
    );
  });

  it('is checked when a tool is added without defineTool', () => {
    const server = createServer({ name: 't', version: '1' });
    const both = { name: 'both', description: 'x', input: z.object({}), inputJsonSchema: { type: 'object' as const } };
    expect(() => server.addTool({ ...both, handler: () => '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION' }),
    );
  });
});
