import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { approvalPolicies } from '../approvals/approval-policy.js';
import { HostError } from '../errors.js';
import { type ConfigInput, inputResolver } from './config-inputs.js';
import { readEnvFile } from './env-file.js';
import {
  type ConfigProblem,
  defaultCallTimeoutMs,
  defaultStartupTimeoutMs,
  type HostConfig,
  type OAuthSettings,
  type ServerConfig,
  type ServerTransportConfig,
} from './server-config.js';
import { inputReferences, type SubstitutionContext, substitute } from './substitute.js';

export type { ConfigInput } from './config-inputs.js';

/** How to read a config object. */
export interface ParseConfigOptions {
  /** Names the source in error messages (a file path); default `config`. */
  file?: string;
  /** Environment for `${env:NAME}`; default `process.env`. */
  environment?: NodeJS.ProcessEnv;
  /** Value of `${workspaceFolder}`; default the working directory. */
  workspaceFolder?: string;
  /** Asks a person for the value of a VS Code input; undefined means no answer (then the input's default). */
  resolveInput?(input: ConfigInput): Promise<string | undefined>;
  /** Values of VS Code inputs by id (`--input id=value`); they win over `MCPKIT_INPUT_<ID>` and asking. */
  inputValues?: Record<string, string>;
  /** Reads only these servers: the others are neither checked nor asked inputs for; an unknown name is an error. */
  only?: readonly string[];
}

const stringRecord = z.record(z.string(), z.string());
const names = z.array(z.string());
const policy = z.enum(approvalPolicies);

// Fields every server entry may carry besides its transport (mcpkit's own; other clients ignore them).
const common = {
  disabled: z.boolean().optional(),
  timeout: z.number().int().positive().optional(),
  startupTimeout: z.number().int().positive().optional(),
  tools: z.object({ allow: names.optional(), deny: names.optional(), pin: names.optional() }).optional(),
  approve: z.union([policy, z.record(z.string(), policy)]).optional(),
  roots: names.optional(),
};

const stdioEntry = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: names.optional(),
  env: stringRecord.optional(),
  /** A `.env` file whose variables the server gets (VS Code); `env` wins over it. */
  envFile: z.string().optional(),
  cwd: z.string().optional(),
  ...common,
});

// A server's OAuth client: Claude Code's `clientId` and `callbackPort`, with mcpkit's own fields beside them.
const oauthEntry = z
  .strictObject({
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    scopes: z.union([names, z.string()]).optional(),
    callbackPort: z.number().int().min(1).max(65535).optional(),
    redirectPort: z.number().int().min(1).max(65535).optional(),
    clientMetadataUrl: z.url({ protocol: /^https$/ }).optional(),
    grantType: z.enum(['authorization_code', 'client_credentials']).optional(),
    privateKey: z.string().min(1).optional(),
    signingAlgorithm: z.string().min(1).optional(),
  })
  .refine(
    (oauth) => oauth.grantType !== 'client_credentials' || (oauth.clientId && (oauth.clientSecret || oauth.privateKey)),
    {
      message: 'the client_credentials grant needs clientId and clientSecret or privateKey',
      path: ['grantType'],
    },
  );

const httpEntry = z.object({
  type: z.enum(['http', 'sse', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url(),
  headers: stringRecord.optional(),
  oauth: oauthEntry.optional(),
  ...common,
});

const inputEntry = z.object({
  id: z.string().min(1),
  type: z.string(),
  description: z.string().optional(),
  password: z.boolean().optional(),
  default: z.string().optional(),
});

function describePath(path: PropertyKey[]): string {
  return path.map(String).join('.');
}

function invalid(where: string, error: z.ZodError): HostError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? `: field "${describePath(issue.path)}"` : '';
  return new HostError('CONFIG_INVALID', `${where}${field}: ${issue?.message ?? 'invalid'}.`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Finds the servers object: `mcpServers` (Claude Desktop, Cursor, Claude Code), `servers` (VS Code), `mcp.servers`. */
function serversOf(json: Record<string, unknown>, file: string): { servers: Record<string, unknown>; key: string } {
  for (const [key, value] of [
    ['mcpServers', json.mcpServers],
    ['servers', json.servers],
    ['mcp.servers', isRecord(json.mcp) ? json.mcp.servers : undefined],
  ] as const) {
    if (value === undefined) continue;
    if (!isRecord(value)) throw new HostError('CONFIG_INVALID', `${file}: field "${key}" must be an object.`);
    return { servers: value, key };
  }
  throw new HostError(
    'CONFIG_INVALID',
    `${file}: has neither "mcpServers" (Claude Desktop, Cursor, Claude Code) nor "servers" (VS Code).`,
  );
}

/**
 * The entries of the servers named in `only` (all when absent); an unknown name lists the enabled servers, and a
 * disabled one is refused as such.
 */
function selectServers(servers: Record<string, unknown>, only: readonly string[] | undefined, file: string) {
  const entries = Object.entries(servers);
  if (only === undefined) return entries;
  const unknown = only.find((name) => !Object.hasOwn(servers, name));
  if (unknown !== undefined) {
    const enabled = entries.filter(([, entry]) => !isRecord(entry) || entry.disabled !== true).map(([name]) => name);
    throw new HostError(
      'UNKNOWN_SERVER',
      `${file} has no server "${unknown}" (its servers: ${enabled.join(', ') || 'none'}).`,
    );
  }
  const disabled = only.find((name) => isRecord(servers[name]) && servers[name].disabled === true);
  if (disabled !== undefined) {
    throw new HostError('SERVER_UNAVAILABLE', `Server "${disabled}" is disabled in ${file} ("disabled": true).`);
  }
  return entries.filter(([name]) => only.includes(name));
}

// The failures that disable one server rather than refuse the whole config.
const serverProblemCodes: readonly string[] = ['CONFIG_VARIABLE_UNSET', 'CONFIG_INPUT_MISSING'];

/** The values of the inputs one server entry refers to; errors name the server. */
async function serverInputs(
  entry: unknown,
  where: string,
  inputValue: (id: string) => Promise<string>,
): Promise<Record<string, string>> {
  const inputs: Record<string, string> = {};
  for (const id of new Set(inputReferences(JSON.stringify(entry)))) {
    try {
      inputs[id] = await inputValue(id);
    } catch (error) {
      throw HostError.isInstance(error) ? new HostError(error.code, `${where}: ${error.message}`) : error;
    }
  }
  return inputs;
}

/**
 * Reads a config object in any of the formats users already have and returns the servers, normalized. Every error
 * names the file, the server and the field.
 */
export async function parseConfig(json: unknown, options: ParseConfigOptions = {}): Promise<HostConfig> {
  const file = options.file ?? 'config';
  if (!isRecord(json)) throw new HostError('CONFIG_INVALID', `${file}: must be a JSON object.`);
  const entries = selectServers(serversOf(json, file).servers, options.only, file);

  const inputsJson = json.inputs ?? (isRecord(json.mcp) ? json.mcp.inputs : undefined) ?? [];
  const parsedInputs = z.array(inputEntry).safeParse(inputsJson);
  if (!parsedInputs.success) throw invalid(`${file}: inputs`, parsedInputs.error);
  const declaredInputs = new Map(parsedInputs.data.map((input) => [input.id, input]));

  const environment = options.environment ?? process.env;
  const context: Omit<SubstitutionContext, 'where'> = {
    environment,
    inputs: {},
    workspaceFolder: options.workspaceFolder ?? process.cwd(),
    userHome: homedir(),
  };
  // Inputs are asked once each, only when a server that is read uses them.
  const inputValue = inputResolver(declaredInputs, {
    environment,
    ...(options.inputValues ? { values: options.inputValues } : {}),
    ...(options.resolveInput ? { ask: options.resolveInput } : {}),
  });

  const roots = parseRoots(json.roots, file, context);
  const result: ServerConfig[] = [];
  const problems: ConfigProblem[] = [];
  for (const [name, entry] of entries) {
    const where = `${file}: server "${name}"`;
    try {
      const inputs = isRecord(entry) && entry.disabled === true ? {} : await serverInputs(entry, where, inputValue);
      const server = parseServer(name, entry, file, { ...context, inputs });
      if (server.roots === undefined && roots !== undefined) server.roots = roots;
      const envFile = isRecord(entry) && typeof entry.envFile === 'string' ? entry.envFile : undefined;
      if (envFile !== undefined && server.transport.kind === 'stdio') {
        const at = `${where}: field "envFile"`;
        const path = resolve(context.workspaceFolder, substitute(envFile, { ...context, where: at }));
        server.transport.env = { ...(await readEnvFile(path, at)), ...server.transport.env };
      }
      result.push(server);
    } catch (error) {
      // A variable or input without a value disables only the server that uses it (a disabled one says nothing).
      if (!HostError.isInstance(error) || !serverProblemCodes.includes(error.code)) throw error;
      if (isRecord(entry) && entry.disabled === true) continue;
      problems.push({ server: name, message: `${error.message} Server "${name}" is not started.` });
    }
  }
  return { servers: result, problems, source: file };
}

/** The top-level `roots` (directories offered to every server without its own), resolved against the workspace. */
function parseRoots(json: unknown, file: string, context: Omit<SubstitutionContext, 'where'>): string[] | undefined {
  if (json === undefined) return undefined;
  const parsed = names.safeParse(json);
  if (!parsed.success) throw invalid(`${file}: roots`, parsed.error);
  return parsed.data.map((root, index) =>
    resolve(context.workspaceFolder, substitute(root, { ...context, where: `${file}: field "roots.${index}"` })),
  );
}

function parseServer(
  name: string,
  entry: unknown,
  file: string,
  context: Omit<SubstitutionContext, 'where'>,
): ServerConfig {
  const where = `${file}: server "${name}"`;
  if (!isRecord(entry)) throw new HostError('CONFIG_INVALID', `${where}: must be an object.`);
  const at = (field: string) => ({ ...context, where: `${where}: field "${field}"` });
  const apply = (field: string, value: string) => substitute(value, at(field));
  const applyAll = (field: string, record: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key, apply(`${field}.${key}`, value)]));

  const isHttp = entry.url !== undefined || entry.type === 'http' || entry.type === 'sse';
  if (!isHttp && entry.command === undefined) {
    throw new HostError('CONFIG_INVALID', `${where}: needs "command" (a stdio server) or "url" (an HTTP server).`);
  }

  let transport: ServerTransportConfig;
  let shared: z.infer<typeof stdioEntry> | z.infer<typeof httpEntry>;
  let oauth: OAuthSettings | undefined;
  if (isHttp) {
    const parsed = httpEntry.safeParse(entry);
    if (!parsed.success) throw invalid(where, parsed.error);
    shared = parsed.data;
    if (parsed.data.oauth) oauth = oauthSettings(parsed.data.oauth, apply);
    transport = {
      kind: 'http',
      url: apply('url', parsed.data.url),
      headers: applyAll('headers', parsed.data.headers),
      // "http" and a bare url may be either generation of server, so both try Streamable HTTP and fall back.
      mode: parsed.data.type === 'sse' ? 'sse' : parsed.data.type?.startsWith('streamable') ? 'streamable' : 'auto',
    };
  } else {
    const parsed = stdioEntry.safeParse(entry);
    if (!parsed.success) throw invalid(where, parsed.error);
    shared = parsed.data;
    transport = {
      kind: 'stdio',
      command: apply('command', parsed.data.command),
      args: (parsed.data.args ?? []).map((argument, index) => apply(`args.${index}`, argument)),
      env: applyAll('env', parsed.data.env),
      ...(parsed.data.cwd !== undefined ? { cwd: apply('cwd', parsed.data.cwd) } : {}),
    };
  }
  return {
    name,
    transport,
    tools: {
      ...(shared.tools?.allow ? { allow: shared.tools.allow } : {}),
      ...(shared.tools?.deny ? { deny: shared.tools.deny } : {}),
      ...(shared.tools?.pin ? { pin: shared.tools.pin } : {}),
    },
    ...(shared.approve !== undefined ? { approve: shared.approve } : {}),
    ...(oauth ? { oauth } : {}),
    callTimeoutMs: shared.timeout ?? defaultCallTimeoutMs,
    startupTimeoutMs: shared.startupTimeout ?? defaultStartupTimeoutMs,
    disabled: shared.disabled ?? false,
    ...(shared.roots
      ? { roots: shared.roots.map((root, index) => resolve(context.workspaceFolder, apply(`roots.${index}`, root))) }
      : {}),
  };
}

/** The `oauth` block with its variables filled in; scopes may be a list or one space-separated string. */
function oauthSettings(
  entry: z.infer<typeof oauthEntry>,
  apply: (field: string, value: string) => string,
): OAuthSettings {
  const scopes = typeof entry.scopes === 'string' ? entry.scopes.split(/\s+/).filter(Boolean) : entry.scopes;
  const port = entry.redirectPort ?? entry.callbackPort;
  return {
    ...(entry.clientId ? { clientId: apply('oauth.clientId', entry.clientId) } : {}),
    ...(entry.clientSecret ? { clientSecret: apply('oauth.clientSecret', entry.clientSecret) } : {}),
    ...(scopes?.length ? { scopes } : {}),
    ...(port !== undefined ? { redirectPort: port } : {}),
    ...(entry.clientMetadataUrl ? { clientMetadataUrl: entry.clientMetadataUrl } : {}),
    ...(entry.grantType ? { grantType: entry.grantType } : {}),
    ...(entry.privateKey ? { privateKey: apply('oauth.privateKey', entry.privateKey) } : {}),
    ...(entry.signingAlgorithm ? { signingAlgorithm: entry.signingAlgorithm } : {}),
  };
}
