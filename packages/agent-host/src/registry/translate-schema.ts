/** The wire formats the host speaks. */
export type Provider = 'openai' | 'anthropic';

type Schema = Record<string, unknown>;

// Keywords that only carry meta-information or that some provider (or an OpenAI-compatible server) rejects.
// Dropping one loosens the schema the model sees; the server still validates the call with its own schema.
const metaKeywords = ['$schema', '$id', '$comment', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary'];
const droppedKeywords: Record<Provider, Set<string>> = {
  anthropic: new Set([...metaKeywords, '$defs', 'definitions']),
  openai: new Set([
    ...metaKeywords,
    '$defs',
    'definitions',
    'if',
    'then',
    'else',
    'not',
    'dependentSchemas',
    'dependentRequired',
    'dependencies',
    'unevaluatedProperties',
    'unevaluatedItems',
    'contentEncoding',
    'contentMediaType',
    'contentSchema',
    'propertyNames',
    'patternProperties',
    'examples',
    'deprecated',
    'readOnly',
    'writeOnly',
  ]),
};

const schemaMaps = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const schemaLists = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const schemaValues = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const maxDepth = 40;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolvePointer(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref
    .slice(1)
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
  let current: unknown = root;
  for (const part of parts) {
    if (!isSchema(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function translateNode(node: unknown, root: Schema, provider: Provider, expanding: string[], depth: number): unknown {
  if (!isSchema(node)) return node;
  if (depth > maxDepth) return {};
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const target = resolvePointer(root, ref);
    // A recursive or unresolvable reference becomes "anything": looser, but the request still goes through.
    if (!isSchema(target) || expanding.includes(ref)) {
      return typeof node.description === 'string' ? { description: node.description } : {};
    }
    const { $ref: _ref, ...siblings } = node;
    const expanded = translateNode(target, root, provider, [...expanding, ref], depth + 1) as Schema;
    return { ...expanded, ...(translateNode(siblings, root, provider, expanding, depth + 1) as Schema) };
  }
  const dropped = droppedKeywords[provider];
  const result: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (dropped.has(key)) continue;
    if (schemaMaps.includes(key) && isSchema(value)) {
      result[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [
          name,
          translateNode(child, root, provider, expanding, depth + 1),
        ]),
      );
    } else if (schemaLists.includes(key) && Array.isArray(value)) {
      result[key] = value.map((child) => translateNode(child, root, provider, expanding, depth + 1));
    } else if (schemaValues.includes(key)) {
      result[key] = Array.isArray(value)
        ? value.map((child) => translateNode(child, root, provider, expanding, depth + 1))
        : translateNode(value, root, provider, expanding, depth + 1);
    } else {
      result[key] = value;
    }
  }
  if (provider === 'openai' && 'const' in result) {
    // Several OpenAI-compatible servers reject `const`; a one-value enum says the same.
    result.enum = [result.const];
    delete result.const;
  }
  return result;
}

/**
 * Both providers want an object at the top with no combinator there. A top-level `anyOf`/`oneOf`/`allOf` of objects is
 * merged into one object whose properties are the union (required only what `allOf` requires of every branch).
 */
function objectAtTop(schema: Schema): Schema {
  const result: Schema = { ...schema };
  const properties: Record<string, unknown> = isSchema(result.properties) ? { ...result.properties } : {};
  const required = new Set(Array.isArray(result.required) ? (result.required as string[]) : []);
  for (const combinator of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = result[combinator];
    if (!Array.isArray(branches)) continue;
    delete result[combinator];
    for (const branch of branches) {
      if (!isSchema(branch)) continue;
      if (isSchema(branch.properties)) Object.assign(properties, branch.properties);
      if (combinator === 'allOf' && Array.isArray(branch.required)) {
        for (const name of branch.required) required.add(String(name));
      }
    }
  }
  result.type = 'object';
  result.properties = properties;
  if (required.size > 0) result.required = [...required].filter((name) => name in properties);
  else delete result.required;
  return result;
}

/** Translations already made, per provider, by the schema object the server listed. */
const translated: Record<Provider, WeakMap<Schema, Schema>> = { openai: new WeakMap(), anthropic: new WeakMap() };

/**
 * Translates a tool's input schema for a provider: references inlined (recursive ones loosened), keywords the
 * provider rejects dropped, and an object without combinators at the top. Never throws: an odd schema gets looser,
 * not refused, because one bad tool must not fail every request.
 */
export function translateSchema(schema: unknown, provider: Provider): Schema {
  const root = isSchema(schema) ? schema : {};
  // Each request lists every tool again; a server's listed schema objects do not change, so translate each once.
  const cached = translated[provider].get(root);
  if (cached) return cached;
  const result = translateNode(root, root, provider, [], 0);
  const schemaForProvider = objectAtTop(isSchema(result) ? result : {});
  translated[provider].set(root, schemaForProvider);
  return schemaForProvider;
}
