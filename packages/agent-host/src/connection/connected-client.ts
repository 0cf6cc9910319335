import { Client, type PriorDiscovery, SdkError, SdkErrorCode, type Transport } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/server-config.js';
import { HostError } from '../errors.js';
import { type ClientRequestHandlers, clientCapabilities, installClientRequestHandlers } from './client-requests.js';
import { httpTransport } from './http-transport.js';
import {
  authorizedFetch,
  type ConnectionAuthorization,
  hasAuthorizationHeader,
  signInAllowanceMs,
  signInRequired,
} from './oauth/connection-authorization.js';
import { GroupStdioTransport } from './stdio-transport.js';
import type { NegotiatedProtocol, ServerLogSink } from './types.js';

/** An MCP client connected to one server, the transport it speaks over, and the protocol it negotiated. */
export interface ConnectedClient {
  client: Client;
  transport: Transport;
  protocol: NegotiatedProtocol;
}

/** What connecting a client needs besides the server's config. */
export interface ConnectClientOptions {
  log: ServerLogSink;
  handlers: ClientRequestHandlers;
  clientInfo?: { name: string; version: string };
  /**
   * An era already known for this server (a stdio server that exited on the `server/discover` probe is legacy):
   * connecting skips the probe.
   */
  prior?: PriorDiscovery;
  /** Replaces the global fetch of HTTP transports (a proxy agent, or a test that stands in for part of a server). */
  fetch?: typeof fetch;
  /** Called when the server says its tools, prompts or resources changed. */
  onListChanged(): void;
  /** Where OAuth tokens are kept and whether a sign-in in the browser may start (default: the user's file, silent). */
  authorization?: ConnectionAuthorization;
}

// On stdio a probe with no answer means a legacy server (which every server also speaks), so the probe need not
// wait for the whole startup allowance; on HTTP silence is an outage, and the probe gets all of it.
const stdioProbeTimeoutMs = 5000;

function newClient(config: ServerConfig, options: ConnectClientOptions, kind: NegotiatedProtocol['transport']): Client {
  const onChanged = () => options.onListChanged();
  // The list is read again by the connection itself (all four lists at once), so the SDK only tells.
  const changed = { autoRefresh: false, debounceMs: 0, onChanged };
  const client = new Client(options.clientInfo ?? { name: 'mcpkit-host', version: '0.1.0' }, {
    capabilities: clientCapabilities(options.handlers),
    // Modern first (server/discover), falling back to the 2025-11-25 handshake; the legacy SSE transport has no
    // modern era, so it goes straight to the handshake.
    versionNegotiation:
      kind === 'sse'
        ? { mode: 'legacy' }
        : {
            mode: 'auto',
            probe: {
              timeoutMs:
                kind === 'stdio' ? Math.min(config.startupTimeoutMs, stdioProbeTimeoutMs) : config.startupTimeoutMs,
            },
          },
    // input_required results (elicitation, sampling, roots embedded in a modern-era result) are answered by the
    // same handlers as server->client requests, and the request state is echoed back as it came.
    inputRequired: { autoFulfill: true, maxRounds: 10 },
    listChanged: { tools: changed, prompts: changed, resources: changed },
    listMaxPages: 100,
  });
  installClientRequestHandlers(client, config.name, options.handlers);
  // Protocol errors (a bad message, a failed send) are not fatal: the request concerned fails on its own.
  client.onerror = () => {};
  return client;
}

function protocolOf(client: Client, transport: NegotiatedProtocol['transport']): NegotiatedProtocol {
  const era = client.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
  return { era, version: client.getNegotiatedProtocolVersion() ?? '', transport };
}

async function connectWith(
  transport: Transport,
  kind: NegotiatedProtocol['transport'],
  config: ServerConfig,
  options: ConnectClientOptions,
): Promise<ConnectedClient> {
  const client = newClient(config, options, kind);
  try {
    await client.connect(transport, {
      timeout: config.startupTimeoutMs,
      ...(options.prior ? { prior: options.prior } : {}),
    });
  } catch (error) {
    await transport.close().catch(() => {});
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      throw new Error(`no answer to initialize within ${config.startupTimeoutMs} ms`, { cause: error });
    }
    if (transport instanceof GroupStdioTransport && transport.exitDescription) {
      throw new StdioExitError(`the process ${transport.exitDescription} before answering initialize`, error);
    }
    throw error;
  }
  return { client, transport, protocol: protocolOf(client, kind) };
}

/** A stdio server's process ended before it answered the connect. */
class StdioExitError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'StdioExitError';
  }
}

async function connectStdio(
  config: ServerConfig,
  stdio: Extract<ServerConfig['transport'], { kind: 'stdio' }>,
  options: ConnectClientOptions,
): Promise<ConnectedClient> {
  const spawnTransport = () => new GroupStdioTransport({ name: config.name, ...stdio, log: options.log });
  try {
    return await connectWith(spawnTransport(), 'stdio', config, options);
  } catch (error) {
    if (!(error instanceof StdioExitError) || options.prior) throw error;
    // Some legacy servers exit on any request before `initialize`, the probe included: start it again and go
    // straight to the handshake. A server that exits whatever it is asked fails the same way a second time.
    options.log(config.name, 'exited on the server/discover probe; starting it again with the 2025-11-25 handshake');
    return await connectWith(spawnTransport(), 'stdio', config, { ...options, prior: { kind: 'legacy' } });
  }
}

/**
 * Starts the server (a process group, or an HTTP connection falling back to legacy SSE), negotiates the protocol era
 * (modern first, then the 2025-11-25 handshake) and initializes. Throws with a reason a person can act on when it
 * cannot.
 */
export async function connectClient(config: ServerConfig, options: ConnectClientOptions): Promise<ConnectedClient> {
  const transport = config.transport;
  if (transport.kind === 'stdio') return connectStdio(config, transport, options);
  const http = (kind: 'streamable' | 'sse') =>
    httpTransport(
      transport.url,
      transport.headers,
      kind,
      kind === 'streamable' && !hasAuthorizationHeader(transport.headers)
        ? authorizedFetch(config, transport.url, options)
        : options.fetch,
    );
  if (transport.mode === 'sse') return connectWith(http('sse'), 'sse', config, options);
  // The first request may wait for a person in the browser: that time is added to the startup allowance.
  const streamable = {
    ...config,
    startupTimeoutMs: config.startupTimeoutMs + signInAllowanceMs(options.authorization),
  };
  try {
    return await connectWith(http('streamable'), 'streamable-http', streamable, options);
  } catch (error) {
    const signIn = signInRequired(error);
    if (signIn) {
      throw new HostError('SIGN_IN_REQUIRED', `${signIn.message}: run \`mcpkit-host auth login ${config.name}\``, {
        cause: error,
      });
    }
    if (transport.mode === 'streamable') throw error;
    // An older server answers the Streamable HTTP POST with an error; try the legacy transport before giving up.
    try {
      const connected = await connectWith(http('sse'), 'sse', config, options);
      options.log(config.name, 'connected with the legacy HTTP+SSE transport');
      return connected;
    } catch {
      throw error;
    }
  }
}
