import { z } from 'zod';

/** The JSON Schema of an object schema, as MCP carries it in tools/list (no `$schema` key, `type: "object"`). */
export function objectJsonSchema(
  schema: z.ZodObject,
  io: 'input' | 'output',
): { type: 'object'; [key: string]: unknown } {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return { ...rest, type: 'object' };
}

/** One readable sentence listing what is wrong with a value, from a zod error. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}
