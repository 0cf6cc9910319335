import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultCallTimeoutMs, defaultStartupTimeoutMs, type OAuthSettings } from '../../config/server-config.js';
import { followRedirects } from '../../connection/oauth/authorization-page.js';
import { TokenStore } from '../../connection/oauth/token-store.js';
import { ServerConnection } from '../../connection/server-connection.js';
import type { Tool } from '../../connection/types.js';
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

/** A tool call the suite asks for in MCP_CONFORMANCE_CONTEXT (`toolCalls`), with the exact arguments to send. */
interface ScriptedCall {
  name: string;
  arguments: Record<string, unknown>;
}

function scriptedCalls(): ScriptedCall[] | undefined {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return undefined;
  try {
    const context = JSON.parse(raw) as { toolCalls?: ScriptedCall[] };
    return Array.isArray(context.toolCalls) ? context.toolCalls : undefined;
  } catch {
    return undefined;
  }
}

// The preservation scenario's referee reads back the schema of its focal tool as the client holds it, through an
// echo tool (SEP-1613, SEP-2106): every JSON Schema 2020-12 keyword must have come through untouched.
const schemaEchoTool = 'json_schema_echo';
const schemaFocalTool = 'json_schema_2020_12_tool';

/**
 * The client the auth scenarios that test a pre-registered client give in MCP_CONFORMANCE_CONTEXT: an id with a secret
 * or a private key, signing in by itself (client credentials) in the scenarios named so.
 */
function preRegisteredClient(scenario: string): OAuthSettings | undefined {
  try {
    const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, unknown>;
    const text = (key: string) => (typeof context[key] === 'string' ? (context[key] as string) : undefined);
    const clientId = text('client_id');
    if (!clientId) return undefined;
    const clientSecret = text('client_secret');
    const privateKey = text('private_key_pem');
    const signingAlgorithm = text('signing_algorithm');
    return {
      clientId,
      ...(clientSecret ? { clientSecret } : {}),
      ...(privateKey ? { privateKey } : {}),
      ...(signingAlgorithm ? { signingAlgorithm } : {}),
      ...(scenario.startsWith('auth/client-credentials') ? { grantType: 'client_credentials' as const } : {}),
    };
  } catch {
    return undefined;
  }
}

// The suite's authorization servers accept this URL as a Client ID Metadata Document where they support them.
const clientMetadataUrl = 'https://conformance-test.local/client-metadata.json';

/** The calls to make: the suite's own list when it gives one, else every tool with arguments that fit its schema. */
function plannedCalls(tools: readonly Tool[]): ScriptedCall[] {
  const scripted = scriptedCalls();
  if (scripted) return scripted;
  const focal = tools.find((tool) => tool.name === schemaFocalTool);
  if (focal && tools.some((tool) => tool.name === schemaEchoTool)) {
    return [{ name: schemaEchoTool, arguments: { schema: focal.inputSchema } }];
  }
  return tools.map((tool) => ({ name: tool.name, arguments: sampleArguments(tool.inputSchema as Schema) }));
}

/**
 * `conformance-client URL`: the client side of the official conformance suite, which appends the URL and names the
 * scenario in MCP_CONFORMANCE_SCENARIO. It does what a host does with any server: negotiates the protocol era
 * (server/discover first, else the 2025-11-25 handshake) over Streamable HTTP, lists the tools and calls each with
 * arguments that fit its schema (or the calls the suite lists in MCP_CONFORMANCE_CONTEXT), accepting forms with their
 * defaults and answering input_required rounds by the same handlers.
 */
export async function conformanceClientCommand(parsed: ParsedCommand): Promise<number> {
  const url = parsed.positionals.at(-1);
  if (!url) throw new HostError('USAGE', 'conformance-client needs the server URL.');
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
  writeError(`conformance-client: scenario ${scenario} at ${url}\n`);
  // Each run signs in afresh: its tokens live in a file of its own, removed at the end. The suite's authorization
  // pages approve themselves, so the browser is an HTTP client that follows their redirects.
  const tokenDirectory = mkdtempSync(join(tmpdir(), 'mcpkit-conformance-tokens-'));
  const client = preRegisteredClient(scenario);
  const connection = new ServerConnection(
    {
      name: 'conformance',
      transport: { kind: 'http', url, headers: {}, mode: 'streamable' },
      tools: {},
      callTimeoutMs: defaultCallTimeoutMs,
      startupTimeoutMs: defaultStartupTimeoutMs,
      oauth: { clientMetadataUrl, ...client },
      disabled: false,
    },
    {
      log: (server, line) => writeError(`[${server}] ${line}\n`),
      authorization: {
        store: new TokenStore(join(tokenDirectory, 'tokens.json')),
        interactive: { open: followRedirects(), timeoutMs: 20_000 },
      },
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
    writeError(`conformance-client: protocol ${JSON.stringify(connection.protocol)}\n`);
    for (const call of plannedCalls(connection.tools)) {
      const result = await connection.callTool(call.name, call.arguments);
      writeOut(`${call.name}: ${describeResult(result)}\n`);
      failed ||= result.isError === true;
    }
    return failed ? 1 : 0;
  } finally {
    await connection.close();
    rmSync(tokenDirectory, { recursive: true, force: true });
  }
}
