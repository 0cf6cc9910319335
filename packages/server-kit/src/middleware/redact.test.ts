import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { argumentsSchemaOf, redactArguments, secretNames } from './redact.js';

describe('redactArguments', () => {
  it('redacts what the schema marks write-only or password, whatever the name', () => {
    const tool = defineTool({
      name: 'connect',
      description: 'Connects.',
      input: z.object({
        host: z.string(),
        pin: z.string().meta({ writeOnly: true }),
        phrase: z.string().meta({ format: 'password' }),
        nested: z.object({ code: z.string().meta({ writeOnly: true }), label: z.string() }),
        list: z.array(z.object({ hidden: z.number().meta({ writeOnly: true }) })),
      }),
      handler: () => 'ok',
    });
    const schema = argumentsSchemaOf(tool);
    expect(
      redactArguments(
        { host: 'db', pin: '1234', phrase: 'open sesame', nested: { code: 'x', label: 'y' }, list: [{ hidden: 7 }] },
        schema,
      ),
    ).toEqual({
      host: 'db',
      pin: '[redacted]',
      phrase: '[redacted]',
      nested: { code: '[redacted]', label: 'y' },
      list: [{ hidden: '[redacted]' }],
    });
  });

  it('redacts by name without a schema, and leaves numbers and flags with such names alone', () => {
    expect(
      redactArguments(
        {
          password: 'p',
          api_key: 'k',
          apiKey: 'k',
          accessToken: 't',
          Authorization: 'Bearer x',
          query: 'q',
          max_tokens: 5,
        },
        undefined,
      ),
    ).toEqual({
      password: '[redacted]',
      api_key: '[redacted]',
      apiKey: '[redacted]',
      accessToken: '[redacted]',
      Authorization: '[redacted]',
      query: 'q',
      max_tokens: 5,
    });
    for (const name of ['author', 'path', 'keyword', 'tokenizer', 'passage_count'])
      expect(secretNames.test(name)).toBe(false);
  });

  it('cuts long strings and long arrays so that a line stays short', () => {
    const value = redactArguments(
      { text: 'x'.repeat(1000), items: Array.from({ length: 30 }, (_, index) => index) },
      undefined,
    ) as {
      text: string;
      items: unknown[];
    };
    expect(value.text).toBe(`${'x'.repeat(200)}… (1000 characters)`);
    expect(value.items).toHaveLength(21);
    expect(value.items.at(-1)).toBe('… 10 more items');
  });

  it('uses a tool’s JSON Schema input as it is', () => {
    const tool = defineTool({
      name: 'raw',
      description: 'Raw schema.',
      inputJsonSchema: { type: 'object', properties: { key: { type: 'string', writeOnly: true } } },
      handler: () => 'ok',
    });
    expect(redactArguments({ key: 'k' }, argumentsSchemaOf(tool))).toEqual({ key: '[redacted]' });
  });
});
