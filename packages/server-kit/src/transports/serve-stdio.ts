import type { Readable, Writable } from 'node:stream';
import { serveStdio as serveBothEras } from '@modelcontextprotocol/server/stdio';
import type { KitServer } from '../create-server.js';
import { nodeUtil } from '../node-util.js';
import { markSplicing } from '../structured-splice.js';
import { outliveClosedStderr } from './outlive-closed-stderr.js';
import { StdioTransport } from './stdio-transport.js';

/** Options of `serveStdio`; the defaults are the process's own streams. */
export interface StdioOptions {
  input?: Readable;
  output?: Writable;
  /** Exit the process once the server has closed (default true when serving the process's own streams). */
  exitOnClose?: boolean;
  /** Largest message read, in bytes (default 10 MiB); a longer line gets a JSON-RPC error and the session goes on. */
  maxMessageBytes?: number;
}

let consoleRedirected = false;

const { format } = nodeUtil;

/**
 * Sends console output of any dependency to stderr, so that nothing but JSON-RPC reaches stdout. The command-line
 * helper calls it before building the server, so that a dependency logging while it loads data is covered too.
 */
export function redirectConsoleToStderr(): void {
  if (consoleRedirected) return;
  consoleRedirected = true;
  const toStderr = (...values: unknown[]) => {
    process.stderr.write(`${format(...values)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.table = toStderr;
  console.dir = toStderr;
  console.dirxml = toStderr;
}

/**
 * Serves the server over stdio, to clients of both protocol eras (the SDK's entry pins the connection to the era of
 * its opening exchange: `initialize` for 2025-11-25, a `server/discover` probe or a request with the modern `_meta`
 * envelope for 2026-07-28): JSON-RPC on stdout and nothing else. Closes cleanly when stdin ends or on SIGINT and
 * SIGTERM: handlers in flight are aborted and the server's resources released. Resolves once the server has closed.
 * On the process's own streams it also sends the console to stderr and listens for stderr's errors: the server goes
 * on when the reader of its stderr goes away.
 */
export async function serveStdio(server: KitServer, options: StdioOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const ownStreams = input === process.stdin && output === process.stdout;
  const exitOnClose = options.exitOnClose ?? ownStreams;
  if (ownStreams) {
    redirectConsoleToStderr();
    outliveClosedStderr();
  }

  const transport = new StdioTransport(input, output, options.maxMessageBytes);
  let stopping = false;
  let finished: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    finished = resolve;
  });

  const stop = () => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      try {
        await server.close();
      } finally {
        finished();
        // Anything left holding the loop open (a stuck handle) must not keep a closed server alive.
        if (exitOnClose) setTimeout(() => process.exit(0), 1000).unref();
      }
    })();
  };

  input.once('end', stop);
  input.once('close', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const connection = serveBothEras(
    (context) => {
      // Its answers go out through this transport, which writes pre-rendered structured content in as it is.
      const instance = server.factory(context);
      markSplicing(instance, transport);
      return instance;
    },
    {
      transport,
      // Once a session serves the connection, transport errors reach its own error log too; before, only here.
      onerror: (error) =>
        server.sessionCount === 0
          ? server.log.warning(`MCP connection error (the connection goes on): ${error.message}`)
          : server.log.debug(`stdio connection: ${error.message}`),
    },
  );
  server.signal.addEventListener('abort', () => void connection.close(), { once: true });
  // The SDK's entry set its own onclose when it took the transport; keep it and stop the server after it.
  const sdkOnClose = transport.onclose;
  transport.onclose = () => {
    sdkOnClose?.();
    stop();
  };
  return closed;
}
