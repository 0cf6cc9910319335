/**
 * The `Mcp-Param-*` headers of the 2026-07-28 revision (SEP-2243): a tool's input schema may mark a top-level or
 * nested primitive property with `x-mcp-header: Name`, and a client then mirrors that argument into the HTTP header
 * `Mcp-Param-Name` so that gateways can route on it without reading the body. The server checks that the header and
 * the body agree, or a gateway could be shown one value while the tool runs with another.
 */

/** One `x-mcp-header` declaration: where the argument sits in the arguments, its header name and its JSON type. */
export interface ParamHeader {
  path: readonly string[];
  name: string;
  type: string;
}

/** A failed check: the header concerned and one sentence about what disagrees. */
export interface ParamHeaderMismatch {
  header: string;
  sentence: string;
}

const headerKey = 'x-mcp-header';
const tokenPattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// The revision names string, integer and boolean; the conformance suite also mirrors numbers, so they are allowed.
const permittedTypes = new Set(['string', 'integer', 'boolean', 'number']);
// Keywords an annotated property must not sit under: only a chain of `properties` makes it statically reachable.
const unreachableKeywords = [
  'items',
  'prefixItems',
  'additionalProperties',
  'patternProperties',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
  'dependentSchemas',
] as const;
const mapKeywords = new Set(['patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const base64Prefix = '=?base64?';
const base64Suffix = '?=';
const canonicalBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const canonicalDecimal = /^-?\d+(\.\d+)?$/;

const pathName = (path: readonly string[]) => (path.length === 0 ? 'the arguments' : path.join('.'));

/**
 * Finds the `x-mcp-header` declarations of a tool's input schema. Returns them, or a sentence naming the first
 * declaration the revision forbids (not a token, not on a primitive, under `items`/`anyOf`/..., or a duplicate name).
 */
export function scanParamHeaders(inputSchema: unknown): { headers: ParamHeader[] } | { fault: string } {
  const headers: ParamHeader[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: readonly string[], reachable: boolean): string | undefined => {
    if (node === null || typeof node !== 'object') return undefined;
    const schema = node as Record<string, unknown>;
    if (headerKey in schema) {
      const name = schema[headerKey];
      if (!reachable || path.length === 0) {
        return `${pathName(path)} has x-mcp-header, which is only allowed on a property reached through "properties" alone.`;
      }
      if (typeof name !== 'string' || !tokenPattern.test(name)) {
        return `${pathName(path)} has x-mcp-header ${JSON.stringify(name)}, which is not a valid HTTP header name.`;
      }
      const type = typeof schema.type === 'string' ? schema.type : undefined;
      if (type === undefined || !permittedTypes.has(type)) {
        return `${pathName(path)} has x-mcp-header but is of type ${type ?? '(none)'}; only string, integer, number and boolean properties can be mirrored into a header.`;
      }
      const prior = seen.get(name.toLowerCase());
      if (prior !== undefined) return `x-mcp-header "${name}" is declared twice (also as "${prior}").`;
      seen.set(name.toLowerCase(), name);
      headers.push({ path, name, type });
    }
    if (schema.properties !== null && typeof schema.properties === 'object') {
      for (const [key, child] of Object.entries(schema.properties as Record<string, unknown>)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault !== undefined) return fault;
      }
    }
    for (const keyword of unreachableKeywords) {
      const sub = schema[keyword];
      if (sub === undefined || sub === null || typeof sub !== 'object') continue;
      const branches: [string[], unknown][] = mapKeywords.has(keyword)
        ? Object.entries(sub).map(([key, branch]) => [[`<${keyword}>`, key], branch])
        : (Array.isArray(sub) ? sub : [sub]).map((branch) => [[`<${keyword}>`], branch]);
      for (const [where, branch] of branches) {
        const fault = visit(branch, [...path, ...where], false);
        if (fault !== undefined) return fault;
      }
    }
    return undefined;
  };
  const fault = visit(inputSchema, [], true);
  return fault === undefined ? { headers } : { fault };
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

function primitiveText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The header's value as text: a `=?base64?...?=` value decoded as UTF-8; undefined when that encoding is broken. */
function decodeHeader(value: string): string | undefined {
  if (!(value.startsWith(base64Prefix) && value.endsWith(base64Suffix))) return value;
  const encoded = value.slice(base64Prefix.length, value.length - base64Suffix.length);
  if (!canonicalBase64.test(encoded)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
}

/**
 * Checks the `Mcp-Param-*` headers of one `tools/call` against its arguments: an argument that is present must come
 * with its header, carrying the same value (numbers compared as numbers); an absent or null one needs none.
 * Returns the first disagreement, or undefined when they agree.
 */
export function checkParamHeaders(
  headers: readonly ParamHeader[],
  args: unknown,
  headerValue: (name: string) => string | undefined,
): ParamHeaderMismatch | undefined {
  for (const declaration of headers) {
    const header = `Mcp-Param-${declaration.name}`;
    const value = valueAt(args, declaration.path);
    const text = primitiveText(value);
    // Absent or null needs no header; a non-primitive is the argument check's to refuse, with a better sentence.
    if (text === undefined) continue;
    const given = headerValue(header.toLowerCase());
    if (given === undefined) {
      return { header, sentence: `the body carries ${pathName(declaration.path)} but the ${header} header is absent` };
    }
    const decoded = decodeHeader(given);
    if (decoded === undefined) return { header, sentence: `the ${header} header is not valid base64-encoded UTF-8` };
    const numeric =
      (declaration.type === 'integer' || declaration.type === 'number') &&
      typeof value === 'number' &&
      canonicalDecimal.test(decoded);
    if (numeric ? Number(decoded) !== value : decoded !== text) {
      return {
        header,
        sentence: `the ${header} header says ${JSON.stringify(decoded)} but the body carries ${pathName(declaration.path)}=${JSON.stringify(value)}`,
      };
    }
  }
  return undefined;
}
