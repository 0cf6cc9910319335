export { packageVersion, runServerCommand, startServer } from './run-server-command.js';
export type {
  FlagValues,
  ParsedServerCommand,
  ParsedSubcommand,
  ServerCommand,
  ServerFlag,
  Subcommand,
  TransportChoice,
} from './server-command.js';
export { defineSubcommand, helpText, parseHttpAddress, parseServerCommand } from './server-command.js';
export { UsageError } from './usage-error.js';
