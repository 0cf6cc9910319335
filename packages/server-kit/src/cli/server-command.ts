import type { ParseArgsConfig } from 'node:util';
import type { ResourceServerOptions } from '../auth/resource-server.js';
import { errorMessage } from '../errors.js';
import { type LogLevel, logLevels } from '../logger.js';
import { nodeUtil } from '../node-util.js';
import { UsageError } from './usage-error.js';

/**
 * A flag of a server's own, with the one line `--help` shows for it. `integer` takes a positive integer and comes back
 * as a number; a value that is not one is a usage error.
 */
export interface ServerFlag {
  type: 'string' | 'boolean' | 'integer';
  /** The line `--help` shows for the flag. */
  description: string;
  /** The value's name in `--help`, e.g. `FILE` (default `VALUE`, or `N` for an integer). */
  valueName?: string;
  /** A one-letter alias. */
  short?: string;
  /** Whether the flag may be repeated; its value is then an array. */
  multiple?: boolean;
}

type FlagValue<Flag extends ServerFlag> = Flag['type'] extends 'boolean'
  ? boolean
  : Flag['type'] extends 'integer'
    ? number
    : string;

/** The values of parsed flags: a number for `integer`, a boolean for `boolean`, an array for `multiple`. */
export type FlagValues<Flags extends Record<string, ServerFlag>> = {
  [Name in keyof Flags]?: Flags[Name]['multiple'] extends true ? FlagValue<Flags[Name]>[] : FlagValue<Flags[Name]>;
};

/** A command of a server's besides serving, such as `mcpkit-search index DIR`: it runs, then the process exits. */
export interface Subcommand<Flags extends Record<string, ServerFlag> = Record<string, ServerFlag>> {
  /** One sentence on what it does. */
  description: string;
  /** The positional arguments, e.g. `FILE`. */
  positionals?: string;
  /** Whether at least one positional argument is required. */
  requirePositionals?: boolean;
  /** Its own flags (the serving flags do not apply). */
  flags: Flags;
  /** Does the work; a UsageError exits 2, any other error 1, and returning exits 0. */
  run(parsed: { values: FlagValues<Flags>; positionals: string[] }): void | Promise<void>;
}

/** Declares a subcommand, typed from its flags. */
export function defineSubcommand<Flags extends Record<string, ServerFlag>>(
  subcommand: Subcommand<Flags>,
): Subcommand<Flags> {
  return subcommand;
}

/** The shape of a server's command line. */
export interface ServerCommand<Flags extends Record<string, ServerFlag>> {
  /** The executable's name, e.g. `mcpkit-filesystem`. */
  name: string;
  version: string;
  /** One sentence on what the server does. */
  description: string;
  /** The positional arguments, e.g. `DIR [DIR...]`. */
  positionals?: string;
  /** Whether at least one positional argument is required. */
  requirePositionals?: boolean;
  /** The server's own flags. */
  flags: Flags;
  /** Environment variables the server reads, with a line each for `--help`. */
  environment?: Record<string, string>;
  /** Commands besides serving, by the word that starts them; `serve` then names serving explicitly. */
  subcommands?: Record<string, Subcommand>;
}

/** Where to serve: stdio (the default) or Streamable HTTP. */
export type TransportChoice =
  | { kind: 'stdio' }
  | {
      kind: 'http';
      host: string;
      port: number;
      token?: string;
      auth?: ResourceServerOptions;
      allowedOrigins?: string[];
      stateless?: boolean;
    };

/** A parsed command line that serves. */
export interface ParsedServerCommand<Flags extends Record<string, ServerFlag>> {
  values: FlagValues<Flags>;
  positionals: string[];
  transport: TransportChoice;
  logLevel: LogLevel;
}

/** A parsed command line that runs a subcommand. */
export interface ParsedSubcommand {
  subcommand: string;
  values: FlagValues<Record<string, ServerFlag>>;
  positionals: string[];
}

/** The flags every server command has. */
export const commonFlags = {
  http: {
    type: 'string',
    description: 'Serve Streamable HTTP on [host:]port instead of stdio',
    valueName: '[HOST:]PORT',
  },
  token: {
    type: 'string',
    description: 'Require this bearer token over HTTP (or set MCPKIT_TOKEN)',
    valueName: 'TOKEN',
  },
  'auth-issuer': {
    type: 'string',
    description:
      'Accept only OAuth tokens from this authorization server over HTTP (checked by introspection when MCPKIT_AUTH_CLIENT_ID and MCPKIT_AUTH_CLIENT_SECRET are set)',
    valueName: 'URL',
  },
  'auth-audience': {
    type: 'string',
    description: 'The URL clients reach this server at, which tokens must name (default: the --http address)',
    valueName: 'URL',
  },
  'auth-scope': {
    type: 'string',
    multiple: true,
    description: 'A scope every token must grant (repeatable)',
    valueName: 'SCOPE',
  },
  'allowed-origin': {
    type: 'string',
    multiple: true,
    description: 'An Origin allowed to call over HTTP besides loopback ones (repeatable)',
    valueName: 'ORIGIN',
  },
  stateless: { type: 'boolean', description: 'Serve HTTP without sessions (for several instances behind a balancer)' },
  'log-level': {
    type: 'string',
    description: `Lowest level logged to stderr: ${logLevels.join(', ')}`,
    valueName: 'LEVEL',
  },
  help: { type: 'boolean', short: 'h', description: 'Show this help and exit' },
  version: { type: 'boolean', short: 'v', description: 'Show the version and exit' },
} satisfies Record<string, ServerFlag>;

/** The `--help` flag of a subcommand. */
export const subcommandFlags = {
  help: { type: 'boolean', short: 'h', description: 'Show this help and exit' },
} satisfies Record<string, ServerFlag>;

/** The resource-server options of `--auth-*`; introspection when the environment names a client for it. */
function authOptions(
  issuer: string,
  values: Record<string, unknown>,
  environment: Record<string, string | undefined>,
): ResourceServerOptions {
  for (const [flag, value] of [
    ['--auth-issuer', issuer],
    ['--auth-audience', values['auth-audience']],
  ] as const) {
    if (typeof value === 'string' && !URL.canParse(value))
      throw new UsageError(`${flag} takes a URL; got ${JSON.stringify(value)}.`);
  }
  const audience = values['auth-audience'] as string | undefined;
  const scopes = values['auth-scope'] as string[] | undefined;
  const clientId = environment.MCPKIT_AUTH_CLIENT_ID;
  const clientSecret = environment.MCPKIT_AUTH_CLIENT_SECRET;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new UsageError('Token introspection needs both MCPKIT_AUTH_CLIENT_ID and MCPKIT_AUTH_CLIENT_SECRET.');
  }
  return {
    issuer,
    ...(audience ? { audience } : {}),
    ...(scopes ? { scopes } : {}),
    ...(clientId && clientSecret ? { introspection: { clientId, clientSecret } } : {}),
  };
}

/** Reads `--http [host:]port`; the host defaults to loopback. */
export function parseHttpAddress(value: string): { host: string; port: number } {
  // PORT, :PORT, HOST:PORT or [IPV6]:PORT; the host part, when present, must be followed by a colon.
  const match = /^(?:(?:\[([^\]]+)\]|([^:[\]]+))?:)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--http takes [host:]port, such as 8080 or 127.0.0.1:8080; got ${JSON.stringify(value)}.`);
  }
  return { host: match[1] ?? match[2] ?? '127.0.0.1', port };
}

function positiveInteger(flag: string, value: string): number {
  const number = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number <= 0) {
    throw new UsageError(`--${flag} takes a positive integer; got ${JSON.stringify(value)}.`);
  }
  return number;
}

const { parseArgs } = nodeUtil;

/** Parses flags and positionals with node:util parseArgs; integers become numbers, mistakes UsageErrors. */
function parseFlags(flags: Record<string, ServerFlag>, argv: string[]) {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, flag] of Object.entries(flags)) {
    options[name] = {
      type: flag.type === 'boolean' ? 'boolean' : 'string',
      ...(flag.short ? { short: flag.short } : {}),
      ...(flag.multiple ? { multiple: true } : {}),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  const values: Record<string, unknown> = { ...parsed.values };
  for (const [name, flag] of Object.entries(flags)) {
    const value = values[name];
    if (flag.type !== 'integer' || value === undefined) continue;
    values[name] = Array.isArray(value)
      ? value.map((item: string) => positiveInteger(name, item))
      : positiveInteger(name, value as string);
  }
  return { values, positionals: parsed.positionals };
}

function requirePositionals(
  command: { requirePositionals?: boolean; positionals?: string },
  name: string,
  positionals: string[],
) {
  if (command.requirePositionals && positionals.length === 0) {
    throw new UsageError(`${name} needs ${command.positionals ?? 'an argument'}.`);
  }
}

/**
 * Parses a server's command line. Throws UsageError for an unknown flag or a bad value; `--help` and `--version` come
 * back as `{ exit }` with the text to print; a subcommand's words come back as `{ subcommand, values, positionals }`.
 */
export function parseServerCommand<Flags extends Record<string, ServerFlag>>(
  command: ServerCommand<Flags>,
  argv: string[],
  environment: NodeJS.ProcessEnv = {},
): ParsedServerCommand<Flags> | ParsedSubcommand | { exit: string } {
  const [first, ...rest] = argv;
  // Own keys only: a positional such as `constructor` is not a subcommand.
  const subcommand =
    first !== undefined && command.subcommands && Object.hasOwn(command.subcommands, first)
      ? command.subcommands[first]
      : undefined;
  if (first !== undefined && subcommand) {
    const { values, positionals } = parseFlags({ ...subcommand.flags, ...subcommandFlags }, rest);
    if (values.help) return { exit: subcommandHelpText(command, first) };
    requirePositionals(subcommand, `${command.name} ${first}`, positionals);
    return { subcommand: first, values: values as FlagValues<Record<string, ServerFlag>>, positionals };
  }
  const serveArguments = command.subcommands && first === 'serve' ? rest : argv;
  const { values, positionals } = parseFlags({ ...command.flags, ...commonFlags }, serveArguments);
  if (values.help) return { exit: helpText(command as ServerCommand<Record<string, ServerFlag>>) };
  if (values.version) return { exit: `${command.version}\n` };
  requirePositionals(command, command.name, positionals);

  const logLevel = (values['log-level'] as string | undefined) ?? 'info';
  if (!logLevels.includes(logLevel as LogLevel)) {
    throw new UsageError(`--log-level takes one of ${logLevels.join(', ')}; got ${JSON.stringify(logLevel)}.`);
  }
  let transport: TransportChoice = { kind: 'stdio' };
  if (typeof values.http === 'string') {
    const issuer = values['auth-issuer'] as string | undefined;
    const token = (values.token as string | undefined) ?? (issuer ? undefined : environment.MCPKIT_TOKEN);
    if (issuer && values.token !== undefined) throw new UsageError('--auth-issuer replaces --token: give one of them.');
    if (!issuer && (values['auth-audience'] !== undefined || values['auth-scope'] !== undefined)) {
      throw new UsageError('--auth-audience and --auth-scope need --auth-issuer.');
    }
    const allowedOrigins = values['allowed-origin'] as string[] | undefined;
    const auth = issuer ? authOptions(issuer, values, environment) : undefined;
    transport = {
      kind: 'http',
      ...parseHttpAddress(values.http),
      ...(token ? { token } : {}),
      ...(auth ? { auth } : {}),
      ...(allowedOrigins ? { allowedOrigins } : {}),
      ...(values.stateless ? { stateless: true } : {}),
    };
  } else if (
    values.token !== undefined ||
    values.stateless !== undefined ||
    values['auth-issuer'] !== undefined ||
    values['auth-audience'] !== undefined ||
    values['auth-scope'] !== undefined
  ) {
    throw new UsageError('--token, --auth-* and --stateless only apply with --http.');
  }
  return { values: values as FlagValues<Flags>, positionals, transport, logLevel: logLevel as LogLevel };
}

function flagRows(flags: Record<string, ServerFlag>): [string, string][] {
  return Object.entries(flags).map(([name, flag]) => {
    const short = flag.short ? `-${flag.short}, ` : '    ';
    const value = flag.type === 'boolean' ? '' : ` ${flag.valueName ?? (flag.type === 'integer' ? 'N' : 'VALUE')}`;
    return [`  ${short}--${name}${value}`, flag.description];
  });
}

function table(rows: [string, string][], width: number): string[] {
  return rows.map(([left, right]) => `${left.padEnd(width)}${right}`);
}

/** The `--help` text of a server command. */
export function helpText(command: ServerCommand<Record<string, ServerFlag>>): string {
  const rows = flagRows({ ...command.flags, ...commonFlags });
  const commands: [string, string][] = Object.entries(command.subcommands ?? {}).map(([word, subcommand]) => [
    `  ${command.name} ${word}${subcommand.positionals ? ` ${subcommand.positionals}` : ''}`,
    subcommand.description,
  ]);
  const width = Math.max(...[...rows, ...commands].map(([left]) => left.length)) + 2;
  const serve = command.subcommands ? '[serve] ' : '';
  const lines = [
    `${command.name} ${command.version}: ${command.description}`,
    '',
    `Usage: ${command.name} ${serve}[options]${command.positionals ? ` ${command.positionals}` : ''}`,
  ];
  if (commands.length > 0) lines.push('', 'Commands (each has --help):', ...table(commands, width));
  lines.push('', 'Options:', ...table(rows, width));
  if (command.environment) {
    lines.push('', 'Environment:');
    for (const [name, description] of Object.entries(command.environment))
      lines.push(`  ${name.padEnd(width - 2)}${description}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The `--help` text of one subcommand. */
function subcommandHelpText(command: ServerCommand<Record<string, ServerFlag>>, word: string): string {
  const subcommand = command.subcommands?.[word] as Subcommand;
  const rows = flagRows({ ...subcommand.flags, ...subcommandFlags });
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const positionals = subcommand.positionals ? ` ${subcommand.positionals}` : '';
  return `${[
    `${command.name} ${word}: ${subcommand.description}`,
    '',
    `Usage: ${command.name} ${word} [options]${positionals}`,
    '',
    'Options:',
    ...table(rows, width),
  ].join('\n')}\n`;
}
