import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { KitServer } from '../create-server.js';
import { type LogLevel, logLevels } from '../logger.js';
import { serveHttp } from '../transports/serve-http.js';
import { redirectConsoleToStderr, serveStdio } from '../transports/serve-stdio.js';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** A flag of a server's own, with the one line `--help` shows for it. */
export type ServerFlag = OptionsConfig[string] & { description: string; valueName?: string };

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
}

/** Where to serve: stdio (the default) or Streamable HTTP. */
export type TransportChoice =
  | { kind: 'stdio' }
  | { kind: 'http'; host: string; port: number; token?: string; allowedOrigins?: string[]; stateless?: boolean };

type FlagValues<Flags extends Record<string, ServerFlag>> = {
  [Name in keyof Flags]?: Flags[Name]['type'] extends 'boolean'
    ? Flags[Name]['multiple'] extends true
      ? boolean[]
      : boolean
    : Flags[Name]['multiple'] extends true
      ? string[]
      : string;
};

/** A parsed command line. */
export interface ParsedServerCommand<Flags extends Record<string, ServerFlag>> {
  values: FlagValues<Flags>;
  positionals: string[];
  transport: TransportChoice;
  logLevel: LogLevel;
}

/** Thrown for a command line that cannot be used; `main` turns it into a message and exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const commonFlags = {
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

/** The `--help` text of a server command. */
export function helpText(command: ServerCommand<Record<string, ServerFlag>>): string {
  const flags = { ...command.flags, ...commonFlags } as Record<string, ServerFlag>;
  const rows = Object.entries(flags).map(([name, flag]) => {
    const short = flag.short ? `-${flag.short}, ` : '    ';
    const value = flag.type === 'string' ? ` ${flag.valueName ?? 'VALUE'}` : '';
    return [`  ${short}--${name}${value}`, flag.description] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const lines = [
    `${command.name} ${command.version}: ${command.description}`,
    '',
    `Usage: ${command.name} [options]${command.positionals ? ` ${command.positionals}` : ''}`,
    '',
    'Options:',
    ...rows.map(([left, right]) => `${left.padEnd(width)}${right}`),
  ];
  if (command.environment) {
    lines.push('', 'Environment:');
    for (const [name, description] of Object.entries(command.environment))
      lines.push(`  ${name.padEnd(width - 2)}${description}`);
  }
  return `${lines.join('\n')}\n`;
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

/**
 * Parses a server's command line (with node:util parseArgs). Throws UsageError for an unknown flag or a bad value;
 * `--help` and `--version` come back as `{ exit }` with the text to print.
 */
export function parseServerCommand<Flags extends Record<string, ServerFlag>>(
  command: ServerCommand<Flags>,
  argv: string[],
  environment: NodeJS.ProcessEnv = {},
): ParsedServerCommand<Flags> | { exit: string } {
  const options: OptionsConfig = {};
  for (const [name, flag] of Object.entries({ ...command.flags, ...commonFlags })) {
    const { description: _description, valueName: _valueName, ...option } = flag as ServerFlag;
    options[name] = option;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values as Record<string, unknown>;
  if (values.help) return { exit: helpText(command as ServerCommand<Record<string, ServerFlag>>) };
  if (values.version) return { exit: `${command.version}\n` };
  if (command.requirePositionals && parsed.positionals.length === 0) {
    throw new UsageError(`${command.name} needs ${command.positionals ?? 'an argument'}.`);
  }

  const logLevel = (values['log-level'] as string | undefined) ?? 'info';
  if (!logLevels.includes(logLevel as LogLevel)) {
    throw new UsageError(`--log-level takes one of ${logLevels.join(', ')}; got ${JSON.stringify(logLevel)}.`);
  }
  let transport: TransportChoice = { kind: 'stdio' };
  if (typeof values.http === 'string') {
    const token = (values.token as string | undefined) ?? environment.MCPKIT_TOKEN;
    const allowedOrigins = values['allowed-origin'] as string[] | undefined;
    transport = {
      kind: 'http',
      ...parseHttpAddress(values.http),
      ...(token ? { token } : {}),
      ...(allowedOrigins ? { allowedOrigins } : {}),
      ...(values.stateless ? { stateless: true } : {}),
    };
  } else if (values.token !== undefined || values.stateless !== undefined) {
    throw new UsageError('--token and --stateless only apply with --http.');
  }
  return {
    values: values as FlagValues<Flags>,
    positionals: parsed.positionals,
    transport,
    logLevel: logLevel as LogLevel,
  };
}

/** Serves `server` on the chosen transport; resolves when it has closed. */
export async function startServer(server: KitServer, transport: TransportChoice): Promise<void> {
  if (transport.kind === 'stdio') return serveStdio(server);
  const { kind: _kind, ...options } = transport;
  const listening = await serveHttp(server, { ...options, handleSignals: true });
  server.log.info(`Serving Streamable HTTP at ${listening.url}`);
  await listening.closed;
}

/**
 * The whole life of a server process: parse the command line, build the server, serve it. Usage errors print one
 * line and exit with code 2; `--help`/`--version` print and exit 0; a failure to build the server exits 1.
 */
export async function runServerCommand<Flags extends Record<string, ServerFlag>>(
  command: ServerCommand<Flags>,
  build: (parsed: ParsedServerCommand<Flags>) => KitServer | Promise<KitServer>,
): Promise<void> {
  let parsed: ParsedServerCommand<Flags> | { exit: string };
  try {
    parsed = parseServerCommand(command, process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${command.name}: ${error.message}\nRun ${command.name} --help for usage.\n`);
    process.exit(2);
  }
  if ('exit' in parsed) {
    process.stderr.write(parsed.exit);
    process.exit(0);
  }
  // Over stdio, stdout belongs to the protocol from the start: building the server may already log.
  if (parsed.transport.kind === 'stdio') redirectConsoleToStderr();
  let server: KitServer;
  try {
    server = await build(parsed);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${command.name}: ${message}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
  await startServer(server, parsed.transport);
}
