import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../config/server-config.js';
import { type ClientRequestHandlers, clientCapabilities, installClientRequestHandlers } from './client-requests.js';
import { httpTransport } from './http-transport.js';
import { GroupStdioTransport } from './stdio-transport.js';
import type { ServerLogSink } from './types.js';

/** An MCP client initialized with one server, and the transport it speaks over. */
export interface ConnectedClient {
  client: Client;
  transport: Transport;
}

/** What connecting a client needs besides the server's config. */
export interface ConnectClientOptions {
  log: ServerLogSink;
  handlers: ClientRequestHandlers;
  clientInfo?: { name: string; version: string };
  /** Called when the server says its tools, prompts or resources changed. */
  onListChanged(): void;
}

async function connectWith(
  transport: Transport,
  config: ServerConfig,
  options: ConnectClientOptions,
): Promise<ConnectedClient> {
  const client = new Client(options.clientInfo ?? { name: 'mcpkit-host', version: '0.1.0' }, {
    capabilities: clientCapabilities(options.handlers),
  });
  installClientRequestHandlers(client, config.name, options.handlers);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onListChanged());
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => options.onListChanged());
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => options.onListChanged());
  // Protocol errors (a bad message, a failed send) are not fatal: the request concerned fails on its own.
  client.onerror = () => {};
  try {
    await client.connect(transport, { timeout: config.startupTimeoutMs });
  } catch (error) {
    await transport.close().catch(() => {});
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      throw new Error(`no answer to initialize within ${config.startupTimeoutMs} ms`);
    }
    if (transport instanceof GroupStdioTransport && transport.exitDescription) {
      throw new Error(`the process ${transport.exitDescription} before answering initialize`);
    }
    throw error;
  }
  return { client, transport };
}

/**
 * Starts the server (a process group, or an HTTP connection falling back to legacy SSE) and initializes it. Throws
 * with a reason a person can act on when it cannot.
 */
export async function connectClient(config: ServerConfig, options: ConnectClientOptions): Promise<ConnectedClient> {
  const transport = config.transport;
  if (transport.kind === 'stdio') {
    return connectWith(new GroupStdioTransport({ name: config.name, ...transport, log: options.log }), config, options);
  }
  if (transport.mode === 'sse')
    return connectWith(httpTransport(transport.url, transport.headers, 'sse'), config, options);
  try {
    return await connectWith(httpTransport(transport.url, transport.headers, 'streamable'), config, options);
  } catch (error) {
    if (transport.mode === 'streamable') throw error;
    // An older server answers the Streamable HTTP POST with an error; try the legacy transport before giving up.
    try {
      const connected = await connectWith(httpTransport(transport.url, transport.headers, 'sse'), config, options);
      options.log(config.name, 'connected with the legacy HTTP+SSE transport');
      return connected;
    } catch {
      throw error;
    }
  }
}
