import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HostConfig } from './config/server-config.js';
import { errorResult } from './connection/call-failure.js';
import type {
  ClientRequestHandlers,
  ElicitationRequest,
  RootEntry,
  SamplingRequest,
} from './connection/client-requests.js';
import type { ConnectionAuthorization } from './connection/oauth/connection-authorization.js';
import type { RestartPolicy } from './connection/restart-policy.js';
import { ServerConnection } from './connection/server-connection.js';
import type { CallOptions } from './connection/tool-call.js';
import { type CallToolResult, type ReadResourceResult, type ServerLogSink, stderrLogSink } from './connection/types.js';
import { errorMessage, HostError } from './errors.js';
import { type RegisteredTool, ToolRegistry } from './registry/tool-registry.js';
import { ResourceOwners } from './resources/resource-owners.js';

/** How the host connects its servers. */
export interface HostOptions {
  /** Where servers' stderr lines go, prefixed with their names (default: the host's stderr). */
  log?: ServerLogSink;
  /**
   * Directories offered to every server as roots, instead of the config's `roots`. Without either, a server is
   * offered no roots and keeps the directories its own arguments give it.
   */
  roots?: string[];
  /** Answers sampling requests; without it the host does not offer sampling. */
  sample?(request: SamplingRequest): Promise<{ text: string; model: string }>;
  /** Answers form elicitation; without it the host declines every form. */
  elicit?: ClientRequestHandlers['elicit'];
  /** How crashed stdio servers are restarted. */
  restart?: Partial<RestartPolicy>;
  /** The name and version the host gives at initialization. */
  clientInfo?: { name: string; version: string };
  /**
   * How HTTP servers protected by OAuth are signed in to: the token file, and whether a sign-in in the browser may
   * start (default: the user's token file, saved sign-ins only; a server that needs a new one fails to start).
   */
  authorization?: ConnectionAuthorization;
}

/** A server that could not be started, and why. */
export interface ServerFailure {
  server: string;
  message: string;
}

/** Many connected servers and one registry over their tools. */
export interface Host {
  /** The enabled servers, in config order, whatever their state. */
  readonly connections: ServerConnection[];
  /** The servers that failed to start. */
  readonly failures: ServerFailure[];
  /** Every tool the model may call, kept current as servers change. */
  readonly registry: ToolRegistry;
  /** A connection by its config name. */
  connection(server: string): ServerConnection | undefined;
  /** Calls a tool by its model-facing name; always resolves with one result. */
  callTool(modelName: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  /** Calls a server's tool by its own name; always resolves with one result. */
  call(server: string, tool: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  /**
   * Reads a resource from the server that lists it, that returned a link to it, or whose resource template it fits
   * (or from `server` when given); a URI no server is known to hold is a RESOURCE_NOT_FOUND HostError.
   */
  readResource(uri: string, server?: string): Promise<ReadResourceResult>;
  /** Called whenever the registry changes; returns a function that unsubscribes. */
  onRegistryChange(listener: (registry: ToolRegistry) => void): () => void;
  /** Closes every connection and ends every server's process group. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const declineAll: NonNullable<ClientRequestHandlers['elicit']> = async (_request: ElicitationRequest) => ({
  action: 'decline',
});

function rootEntries(directories: string[] | undefined): RootEntry[] | undefined {
  return directories?.map((directory) => {
    const path = resolve(directory);
    return { uri: pathToFileURL(path).href, name: path };
  });
}

/**
 * Starts and initializes every enabled server of a config at once. A server that fails is reported in `failures`
 * and the others still work; the returned host never throws for one bad server.
 */
export async function connectHost(config: HostConfig, options: HostOptions = {}): Promise<Host> {
  const log = options.log ?? stderrLogSink;
  const handlers: ClientRequestHandlers = {
    elicit: options.elicit ?? declineAll,
    ...(options.sample ? { sample: options.sample } : {}),
  };
  const registry = new ToolRegistry();
  const listeners = new Set<(registry: ToolRegistry) => void>();
  const connections: ServerConnection[] = [];
  const rebuild = () => {
    registry.rebuild(
      connections.map((connection) => ({
        name: connection.name,
        tools: connection.tools,
        ...(connection.config.tools.pin ? { pin: connection.config.tools.pin } : {}),
      })),
    );
    for (const listener of listeners) listener(registry);
  };
  for (const server of config.servers) {
    if (server.disabled) continue;
    const roots = rootEntries(options.roots ?? server.roots);
    connections.push(
      new ServerConnection(server, {
        log,
        handlers: roots ? { ...handlers, roots: () => roots } : handlers,
        ...(options.restart ? { restart: options.restart } : {}),
        ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
        ...(options.authorization ? { authorization: options.authorization } : {}),
        // A failed server lists no tools, so it leaves the registry. A restarting one keeps its tools, so that names
        // do not shift under the model mid-conversation; its calls meanwhile get a "restarting" error result.
        onChange: rebuild,
      }),
    );
  }

  const failures: ServerFailure[] = [];
  const started = await Promise.allSettled(connections.map((connection) => connection.start()));
  started.forEach((outcome, index) => {
    if (outcome.status === 'rejected') {
      const server = connections[index]?.name ?? '?';
      failures.push({ server, message: errorMessage(outcome.reason) });
      log(server, errorMessage(outcome.reason));
    }
  });
  rebuild();

  const byName = new Map(connections.map((connection) => [connection.name, connection]));
  const owners = new ResourceOwners();
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= Promise.allSettled(connections.map((connection) => connection.close())).then(() => {});
    return closing;
  };
  const call: Host['call'] = (server, tool, args, callOptions) => {
    const connection = byName.get(server);
    if (!connection) {
      // Only the servers a call could reach are worth naming: not the failed or closed ones.
      const up = connections.filter((each) => each.state === 'ready' || each.state === 'restarting');
      const known = up.map((each) => each.name).join(', ') || 'none';
      return Promise.reject(new HostError('UNKNOWN_SERVER', `There is no server "${server}" (up: ${known}).`));
    }
    return connection.callTool(tool, args, callOptions).then((result) => {
      owners.noteResult(server, result);
      return result;
    });
  };
  return {
    connections,
    failures,
    registry,
    connection: (server) => byName.get(server),
    callTool(modelName, args, callOptions) {
      const entry: RegisteredTool | undefined = registry.resolve(modelName);
      if (!entry) {
        return Promise.resolve(errorResult(`There is no tool named "${modelName}". Use one of the tools listed.`));
      }
      return call(entry.server, entry.tool, args, callOptions);
    },
    call,
    async readResource(uri, server) {
      if (server !== undefined) {
        const named = byName.get(server);
        if (!named) throw new HostError('UNKNOWN_SERVER', `There is no server "${server}".`);
        return named.readResource(uri);
      }
      const owner = owners.ownerOf(uri, connections);
      if (!owner) {
        throw new HostError(
          'RESOURCE_NOT_FOUND',
          `No server lists ${uri}, returned a link to it, or has a resource template it fits.`,
        );
      }
      return owner.readResource(uri);
    },
    onRegistryChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
