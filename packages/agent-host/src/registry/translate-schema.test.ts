import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { translateSchema } from './translate-schema.js';

describe('translateSchema', () => {
  it('inlines $ref/$defs for OpenAI and loosens a recursive reference instead of failing', () => {
    const node: z.ZodType = z.lazy(() => z.object({ name: z.string(), children: z.array(node).optional() }));
    const schema = z.toJSONSchema(z.object({ tree: node, kind: z.enum(['a', 'b']) }), { reused: 'ref' });
    const translated = translateSchema(schema, 'openai');
    const text = JSON.stringify(translated);
    expect(text).not.toContain('$ref');
    expect(text).not.toContain('$defs');
    expect(text).not.toContain('$schema');
    expect(translated).toMatchObject({
      type: 'object',
      properties: {
        tree: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array' } } },
        kind: { enum: ['a', 'b'] },
      },
    });
  });

  it('keeps nested objects, anyOf and enums, and turns const into a one-value enum for OpenAI', () => {
    const schema = z.toJSONSchema(
      z.object({
        filter: z.object({ field: z.string(), op: z.literal('eq') }),
        value: z.union([z.string(), z.object({ id: z.number() })]),
      }),
    );
    const translated = translateSchema(schema, 'openai') as { properties: Record<string, Record<string, unknown>> };
    expect(translated.properties.filter).toMatchObject({ properties: { op: { enum: ['eq'] } } });
    expect(translated.properties.value?.anyOf).toMatchObject([{ type: 'string' }, { type: 'object' }]);
    const anthropic = translateSchema(schema, 'anthropic') as { properties: Record<string, Record<string, unknown>> };
    expect(anthropic.properties.filter).toMatchObject({ properties: { op: { const: 'eq' } } });
  });

  it('drops keywords OpenAI rejects but never a property that happens to share their name', () => {
    const schema = {
      type: 'object',
      properties: {
        not: { type: 'string', examples: ['x'] },
        if: { type: 'boolean' },
        path: { type: 'string', contentMediaType: 'text/plain' },
      },
      if: { properties: { if: { const: true } } },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a promise.
      then: { required: ['path'] },
      patternProperties: { '^x-': { type: 'string' } },
    };
    const translated = translateSchema(schema, 'openai');
    expect(translated).toEqual({
      type: 'object',
      properties: { not: { type: 'string' }, if: { type: 'boolean' }, path: { type: 'string' } },
    });
  });

  it('strips $schema and $anchor of a 2020-12 schema the kit now passes through, for both providers', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { city: { type: 'string' } } } },
      properties: { address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    };
    for (const provider of ['openai', 'anthropic'] as const) {
      const translated = translateSchema(schema, provider);
      const text = JSON.stringify(translated);
      expect(text).not.toContain('$schema');
      expect(text).not.toContain('$anchor');
      expect(translated).toMatchObject({
        type: 'object',
        properties: { address: { type: 'object', properties: { city: { type: 'string' } } } },
      });
    }
  });

  it('gives a tool without arguments an empty object schema', () => {
    expect(translateSchema({ type: 'object' }, 'openai')).toEqual({ type: 'object', properties: {} });
    expect(translateSchema(undefined, 'anthropic')).toEqual({ type: 'object', properties: {} });
  });

  it('merges a top-level anyOf of objects into one object, which both providers require', () => {
    const schema = {
      anyOf: [
        { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
      ],
    };
    for (const provider of ['openai', 'anthropic'] as const) {
      expect(translateSchema(schema, provider)).toEqual({
        type: 'object',
        properties: { path: { type: 'string' }, url: { type: 'string' } },
      });
    }
  });
});
