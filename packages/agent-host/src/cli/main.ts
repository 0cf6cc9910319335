import { readFileSync } from 'node:fs';
import { errorMessage, HostError } from '../errors.js';
import { type ParsedCommand, parseCommandLine, usage } from './arguments.js';
import { authCommand } from './commands/auth.js';
import { callCommand } from './commands/call.js';
import { chatCommand } from './commands/chat.js';
import { conformanceClientCommand } from './commands/conformance-client.js';
import { installCommand } from './commands/install.js';
import { runCommand } from './commands/run.js';
import { toolsCommand } from './commands/tools.js';
import { webCommand } from './commands/web.js';
import { flushOut, writeError, writeOut } from './output.js';

const commands: Record<string, (parsed: ParsedCommand) => Promise<number>> = {
  run: runCommand,
  chat: chatCommand,
  tools: toolsCommand,
  call: callCommand,
  'conformance-client': conformanceClientCommand,
  install: installCommand,
  auth: authCommand,
};

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** Runs the command line and returns the exit code: 0 done, 1 failed, 2 bad usage, 130 cancelled. */
async function main(argv: string[]): Promise<number> {
  // `web` takes --port and --listen besides the common options, so it reads its own command line.
  if (argv[0] === 'web') return webCommand(argv.slice(1));
  let parsed: ParsedCommand;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    writeError(`mcpkit-host: ${errorMessage(error)}\nRun mcpkit-host --help for usage.\n`);
    return 2;
  }
  if (parsed.version) {
    writeOut(`${version()}\n`);
    return 0;
  }
  const command = commands[parsed.command];
  if (parsed.help || parsed.command === 'help' || parsed.command === '') {
    writeOut(usage);
    return parsed.command === '' && !parsed.help ? 2 : 0;
  }
  if (!command) {
    writeError(`mcpkit-host: unknown command "${parsed.command}".\nRun mcpkit-host --help for usage.\n`);
    return 2;
  }
  try {
    return await command(parsed);
  } catch (error) {
    if (HostError.isInstance(error) && error.code === 'USAGE') {
      writeError(`mcpkit-host: ${error.message}\nRun mcpkit-host --help for usage.\n`);
      return 2;
    }
    writeError(`mcpkit-host: ${errorMessage(error)}\n`);
    return 1;
  }
}

// A signal ends the process without its exit hooks unless it is handled: exiting here runs them, and the hook of
// the connection module ends every server's process group. `run` handles Ctrl-C itself (it cancels the run first).
process.on('SIGTERM', () => process.exit(143));
process.on('SIGHUP', () => process.exit(129));
process.on('SIGINT', () => {
  if (process.listenerCount('SIGINT') === 1) process.exit(130);
});

const code = await main(process.argv.slice(2));
await flushOut();
// Keep-alive sockets and timers must not hold a finished command open.
process.exit(code);
