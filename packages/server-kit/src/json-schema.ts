import { fromJsonSchema } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** A JSON Schema for an object, as a tool's `inputSchema` carries it in tools/list. */
export type ObjectJsonSchema = { type: 'object'; [keyword: string]: unknown };

/** The outcome of checking a value: the value, or one readable sentence saying what is wrong with it. */
export type SchemaCheck = { success: true; data: Record<string, unknown> } | { success: false; message: string };

/** The JSON Schema of a tool's zod schema, as tools/list carries it: 2020-12, `$schema` kept, `type: "object"`. */
export function toolJsonSchema(schema: z.ZodObject, io: 'input' | 'output'): ObjectJsonSchema {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...generated, type: 'object' };
}

/** The JSON Schema of an object schema without the `$schema` key, as an elicitation form's requestedSchema. */
export function objectJsonSchema(schema: z.ZodObject, io: 'input' | 'output'): ObjectJsonSchema {
  const { $schema: _dialect, ...rest } = toolJsonSchema(schema, io);
  return { ...rest, type: 'object' };
}

/** One readable sentence listing what is wrong with a value, from a zod error or a Standard Schema result. */
export function describeIssues(error: {
  readonly issues: readonly {
    readonly message: string;
    readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
  }[];
}): string {
  return error.issues
    .map((issue) => {
      const path = (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part));
      return `${path.length > 0 ? path.join('.') : '(root)'}: ${issue.message}`;
    })
    .join('; ');
}

// AJV's text is "data/a/b must be string, data must have required property 'c'"; each error starts with `data`.
const ajvErrorStart = /(?:^|, )data((?:\/[^ ]*)?) /g;

/** Rewrites AJV's error text in the form of {@link describeIssues}: `a.b: must be string; (root): ...`. */
function describeJsonSchemaErrors(text: string): string {
  return text.replace(ajvErrorStart, (match, pointer: string) => {
    const where =
      pointer === ''
        ? '(root)'
        : pointer
            .slice(1)
            .split('/')
            .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
            .join('.');
    return `${match.startsWith(', ') ? '; ' : ''}${where}: `;
  });
}

const compiled = new WeakMap<object, (value: unknown) => SchemaCheck>();

/**
 * A checker for values against a JSON Schema (2020-12 unless its `$schema` names 2019-09, draft-07 or draft-06),
 * compiled once per schema object by the SDK's validator; throws an Error when the schema does not compile.
 */
export function jsonSchemaChecker(schema: ObjectJsonSchema): (value: unknown) => SchemaCheck {
  const known = compiled.get(schema);
  if (known) return known;
  const standard = fromJsonSchema<Record<string, unknown>>(schema)['~standard'];
  const check = (value: unknown): SchemaCheck => {
    const result = standard.validate(value);
    if (result instanceof Promise) throw new Error('The JSON Schema validator answered asynchronously.');
    if (!result.issues) return { success: true, data: result.value };
    return {
      success: false,
      message: result.issues.map((issue) => describeJsonSchemaErrors(issue.message)).join('; '),
    };
  };
  compiled.set(schema, check);
  return check;
}
