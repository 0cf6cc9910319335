import { readFileSync } from 'node:fs';
import type { KitServer } from '../create-server.js';
import { errorMessage } from '../errors.js';
import { serveHttp } from '../transports/serve-http.js';
import { redirectConsoleToStderr, serveStdio } from '../transports/serve-stdio.js';
import {
  type ParsedServerCommand,
  parseServerCommand,
  type ServerCommand,
  type ServerFlag,
  type TransportChoice,
} from './server-command.js';
import { UsageError } from './usage-error.js';

/** The `version` of the package.json at `url`, e.g. `new URL('../package.json', import.meta.url)`. */
export function packageVersion(url: URL): string {
  const { version } = JSON.parse(readFileSync(url, 'utf8')) as { version?: unknown };
  if (typeof version !== 'string') throw new Error(`${url.pathname} has no version.`);
  return version;
}

/** Serves `server` on the chosen transport; resolves when it has closed. */
export async function startServer(server: KitServer, transport: TransportChoice): Promise<void> {
  if (transport.kind === 'stdio') return serveStdio(server);
  const { kind: _kind, ...options } = transport;
  const listening = await serveHttp(server, { ...options, handleSignals: true });
  server.log.info(`Serving Streamable HTTP at ${listening.url}`);
  await listening.closed;
}

/** Prints a failure in one line and exits: 2 with a pointer to `--help` for a usage error, else 1. */
function fail(name: string, error: unknown): never {
  if (error instanceof UsageError) {
    process.stderr.write(`${name}: ${error.message}\nRun ${name} --help for usage.\n`);
    process.exit(2);
  }
  process.stderr.write(`${name}: ${errorMessage(error)}\n`);
  process.exit(1);
}

/**
 * The whole life of a server process: parse the command line, then run a subcommand or build the server and serve
 * it. `--help`/`--version` print to stdout and exit 0; usage errors print one line to stderr and exit 2; any other
 * failure (building the server, binding the port, a subcommand) prints its message and exits 1.
 */
export async function runServerCommand<Flags extends Record<string, ServerFlag>>(
  command: ServerCommand<Flags>,
  build: (parsed: ParsedServerCommand<Flags>) => KitServer | Promise<KitServer>,
): Promise<void> {
  let parsed: ReturnType<typeof parseServerCommand<Flags>>;
  try {
    parsed = parseServerCommand(command, process.argv.slice(2), process.env);
  } catch (error) {
    fail(command.name, error);
  }
  if ('exit' in parsed) {
    process.stdout.write(parsed.exit);
    process.exit(0);
  }
  if ('subcommand' in parsed) {
    try {
      await command.subcommands?.[parsed.subcommand]?.run(parsed);
    } catch (error) {
      fail(command.name, error);
    }
    process.exit(0);
  }
  // Over stdio, stdout belongs to the protocol from the start: building the server may already log.
  if (parsed.transport.kind === 'stdio') redirectConsoleToStderr();
  try {
    await startServer(await build(parsed), parsed.transport);
  } catch (error) {
    fail(command.name, error);
  }
}
