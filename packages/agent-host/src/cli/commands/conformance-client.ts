import { pathToFileURL } from 'node:url';
import { defaultCallTimeoutMs, defaultStartupTimeoutMs } from '../../config/server-config.js';
import { ServerConnection } from '../../connection/server-connection.js';
import { HostError } from '../../errors.js';
import type { ParsedCommand } from '../arguments.js';
import { writeError, writeOut } from '../output.js';
import { describeResult } from './call.js';

type Schema = {
  type?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  default?: unknown;
  enum?: unknown[];
};

/** Arguments that satisfy a simple input schema: defaults where given, else a plain value of each required type. */
export function sampleArguments(schema: Schema | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) args[name] = property.default;
    else if (schema?.required?.includes(name)) args[name] = sampleValue(property);
  }
  return args;
}

function sampleValue(schema: Schema): unknown {
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return sampleArguments(schema);
  return 'test';
}

/**
 * `conformance-client URL`: the client side of the official conformance suite, which appends the URL and names the
 * scenario in MCP_CONFORMANCE_SCENARIO. It does what a host does with any server: initializes over Streamable HTTP,
 * lists the tools and calls each with arguments that fit its schema, accepting forms with their defaults.
 */
export async function conformanceClientCommand(parsed: ParsedCommand): Promise<number> {
  const url = parsed.positionals.at(-1);
  if (!url) throw new HostError('USAGE', 'conformance-client needs the server URL.');
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
  writeError(`conformance-client: scenario ${scenario} at ${url}\n`);
  const connection = new ServerConnection(
    {
      name: 'conformance',
      transport: { kind: 'http', url, headers: {}, mode: 'streamable' },
      tools: {},
      callTimeoutMs: defaultCallTimeoutMs,
      startupTimeoutMs: defaultStartupTimeoutMs,
      disabled: false,
    },
    {
      log: (server, line) => writeError(`[${server}] ${line}\n`),
      handlers: {
        roots: () => [{ uri: pathToFileURL(process.cwd()).href, name: 'working directory' }],
        // Accepting with no fields lets the client fill in the form's defaults (SEP-1034).
        elicit: async () => ({ action: 'accept', content: {} }),
        sample: async () => ({ text: 'A sampled answer from the conformance client.', model: 'conformance' }),
      },
    },
  );
  try {
    await connection.start();
    let failed = false;
    for (const tool of connection.tools) {
      const result = await connection.callTool(tool.name, sampleArguments(tool.inputSchema as Schema));
      writeOut(`${tool.name}: ${describeResult(result)}\n`);
      failed ||= result.isError === true;
    }
    return failed ? 1 : 0;
  } finally {
    await connection.close();
  }
}
