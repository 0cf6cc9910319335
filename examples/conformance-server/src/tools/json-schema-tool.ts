import { defineTool } from '@mcpkit/server-kit';

/**
 * `json_schema_2020_12_tool`: an input schema zod cannot express ($defs with $anchor, allOf/anyOf, if/then/else),
 * advertised verbatim with its `$schema` (scenario json-schema-2020-12, SEP-1613 and SEP-2106).
 */
export const jsonSchema202012Tool = defineTool({
  name: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106).',
  annotations: { readOnlyHint: true },
  inputJsonSchema: {
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
  },
  handler: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
});
