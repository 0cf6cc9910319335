import { z } from 'zod';
import type { AnyPrompt } from '../define-prompt.js';
import type { AnyTool } from '../define-tool.js';
import { toolJsonSchema } from '../json-schema.js';
import type { MiddlewareDefinition } from './middleware.js';

/** What stands in for a value that is not written down. */
export const redacted = '[redacted]';

/** Argument names that hold secrets whatever their schema says: passwords, tokens, keys, credentials, cookies. */
export const secretNames =
  /pass(?:word|phrase|wd)|secret|^(?:auth|authorization|bearer)$|token$|api[_-]?key|private[_-]?key|credential|cookie/i;

type JsonSchema = Record<string, unknown>;

/** Whether a property's schema marks its value as one that must not be read back (`writeOnly`, `format: password`). */
function isSecretSchema(schema: JsonSchema | undefined): boolean {
  return schema !== undefined && (schema.writeOnly === true || schema.format === 'password');
}

const schemas = new WeakMap<object, JsonSchema | undefined>();

/** The JSON Schema of a tool's or prompt's arguments, computed once per definition; undefined for a resource. */
export function argumentsSchemaOf(definition: MiddlewareDefinition | undefined): JsonSchema | undefined {
  if (definition === undefined) return undefined;
  if (schemas.has(definition)) return schemas.get(definition);
  let schema: JsonSchema | undefined;
  if ('handler' in definition) {
    const tool = definition as AnyTool;
    schema = tool.inputJsonSchema ?? toolJsonSchema(tool.input ?? z.object({}), 'input');
  } else if ('render' in definition && (definition as AnyPrompt).arguments) {
    schema = toolJsonSchema((definition as AnyPrompt).arguments as z.ZodObject, 'input');
  }
  schemas.set(definition, schema);
  return schema;
}

/** Limits of what a redacted copy holds, so that one line stays short whatever the arguments. */
const maxString = 200;
const maxItems = 20;
const maxDepth = 6;

/** The schema of `key` inside an object schema: its property, or its `additionalProperties` when that is a schema. */
function propertySchema(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  const property = (schema?.properties as Record<string, JsonSchema> | undefined)?.[key];
  if (property !== undefined) return property;
  const additional = schema?.additionalProperties;
  return typeof additional === 'object' && additional !== null ? (additional as JsonSchema) : undefined;
}

/**
 * A copy of `value` fit for a log: a property whose schema says `writeOnly` or `format: "password"`, or whose name
 * says it holds a secret (`password`, `api_key`, `token`, `authorization`...), becomes `[redacted]`; long strings are
 * cut with their length noted, long arrays and deep objects are summarised.
 */
export function redactArguments(value: unknown, schema: JsonSchema | undefined, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > maxString ? `${value.slice(0, maxString)}… (${value.length} characters)` : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= maxDepth) return Array.isArray(value) ? `[${value.length} items]` : '{…}';
  if (Array.isArray(value)) {
    const items = schema?.items as JsonSchema | undefined;
    const copy: unknown[] = value.slice(0, maxItems).map((item) => redactArguments(item, items, depth + 1));
    if (value.length > maxItems) copy.push(`… ${value.length - maxItems} more items`);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const property = propertySchema(schema, key);
    copy[key] =
      isSecretSchema(property) ||
      (secretNames.test(key) && item !== null && typeof item !== 'number' && typeof item !== 'boolean')
        ? redacted
        : redactArguments(item, property, depth + 1);
  }
  return copy;
}
