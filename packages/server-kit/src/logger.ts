import type { LoggingLevel } from '@modelcontextprotocol/server';

export type LogLevel = LoggingLevel;

/** Severity order of the MCP (syslog) levels, lowest first. */
export const logLevels: readonly LogLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** True when `level` is at or above `threshold`. */
export function isLevelEnabled(level: LogLevel, threshold: LogLevel): boolean {
  return logLevels.indexOf(level) >= logLevels.indexOf(threshold);
}

/** Structured logging for handlers: stderr always (above the server's threshold), MCP logging when the client asked. */
export interface Logger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warning(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/** Where a log record goes; a logger fans a record out to each sink. */
export type LogSink = (level: LogLevel, message: string, data: unknown) => void;

/** A logger over one or more sinks. */
export function createLogger(...sinks: LogSink[]): Logger {
  const emit = (level: LogLevel) => (message: string, data?: unknown) => {
    for (const sink of sinks) sink(level, message, data);
  };
  return { debug: emit('debug'), info: emit('info'), warning: emit('warning'), error: emit('error') };
}

function describeData(data: unknown): string {
  if (data === undefined) return '';
  if (data instanceof Error) return `\n${data.stack ?? data.message}`;
  try {
    return ` ${JSON.stringify(data)}`;
  } catch {
    return ` ${String(data)}`;
  }
}

/** A sink that writes one line per record to stderr (never stdout: on stdio servers stdout is the protocol). */
export function stderrSink(name: string, threshold: () => LogLevel): LogSink {
  return (level, message, data) => {
    if (!isLevelEnabled(level, threshold())) return;
    process.stderr.write(`[${name}] ${level}: ${message}${describeData(data)}\n`);
  };
}
