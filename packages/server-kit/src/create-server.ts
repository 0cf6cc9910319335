import type { CacheHint, McpRequestContext, Root, Server, Transport } from '@modelcontextprotocol/server';
import { defaultBudget } from './budget.js';
import { ClientSession, type KitSession, type SessionOwner } from './client-session.js';
import type { AnyPrompt } from './define-prompt.js';
import type { ResourceDefinition } from './define-resource.js';
import type { AnyTool } from './define-tool.js';
import { KitError } from './errors.js';
import { loadOnce } from './kit-code-loading.js';
import { createLogger, type Logger, type LogLevel, stderrSink } from './logger.js';
import type { Middleware } from './middleware/middleware.js';
import type { ParamHeader } from './param-headers.js';
import { Registry } from './registry.js';
import type { InputRounds } from './rounds/input-rounds.js';
import { configuredRequestStateKey, randomRequestStateKey } from './rounds/request-state-key.js';

/** How a server is declared. */
export interface ServerOptions {
  /** The server's name, sent to clients at initialization. */
  name: string;
  /** The server's version, sent to clients at initialization. */
  version: string;
  /** A human-friendly name for UIs. */
  title?: string;
  /** Advice for the model on how to use this server as a whole. */
  instructions?: string;
  tools?: AnyTool[];
  resources?: ResourceDefinition[];
  prompts?: AnyPrompt[];
  /** Character budget of each tool result: text and structured content together (about 4 characters a token). */
  budget?: number;
  /** Page size of tools/list, resources/list, resources/templates/list and prompts/list. */
  pageSize?: number;
  /** The lowest level written to stderr. */
  logLevel?: LogLevel;
  /**
   * Signs the state a modern-era client carries between the rounds of a call that asks for input. Every instance
   * that may receive a retry needs the same key (at least 32 bytes); without one the kit reads the environment
   * variable `MCPKIT_REQUEST_STATE_KEY` (base64), else draws a random key for this process.
   */
  requestState?: { key?: string | Uint8Array; ttlSeconds?: number; maxRounds?: number };
  /**
   * How long clients of the 2026-07-28 era may cache each kind of answer (`ttlMs`, `cacheScope`), per operation;
   * without a hint an answer is marked `ttlMs: 0, cacheScope: 'private'`. 2025-11-25 answers never carry them.
   */
  cache?: Partial<Record<CacheableMethod, CacheHint>>;
  /**
   * Functions around every request the server answers (tools/call, resources/read, prompts/get, completion/complete
   * and the list calls), the first outermost; a definition's own `middleware` runs inside them. In the 2026-07-28 era
   * a call that asks for input runs once per round: each round is a request of its own.
   */
  middleware?: readonly Middleware[];
  /** Called when a client's roots are first known and whenever they change. */
  onRootsChanged?(roots: Root[], session: KitSession): void;
  /**
   * Called on every `tools/list`, before its answer is sent: the moment a client has started, for work that should
   * come after the server's first answer (defer it, e.g. with `setImmediate`, so that the answer goes out first).
   */
  onToolsListed?(): void;
  /** Releases what the server holds (database handles, watchers); called once by `close()`. */
  onClose?(): void | Promise<void>;
}

/** A declared server: connect it to transports, change what it offers at run time, close it. */
export interface KitServer {
  readonly name: string;
  readonly version: string;
  /** Logs to stderr and to every connected client that asked for logs. */
  readonly log: Logger;
  /** Aborted when the server closes; handlers see it through their own signal. */
  readonly signal: AbortSignal;
  /** How many sessions are connected. */
  readonly sessionCount: number;
  /** Serves one client over a transport; a server may serve many at once (one session each). */
  connect(transport: Transport): Promise<KitSession>;
  /**
   * Builds the SDK server for one connection or one request of the given era (for the SDK's `serveStdio` and
   * `createMcpHandler`). With `register`, the session joins the server's sessions (broadcasts, list changes) until
   * it closes; a per-request instance of the modern HTTP era does not.
   */
  factory(context: Pick<McpRequestContext, 'era'>, options?: { register?: boolean }): Server;
  /**
   * Adds a listener for changes of what the server offers, such as the SDK's notifier of `subscriptions/listen`
   * streams in the 2026-07-28 era (sessions of the 2025-11-25 era are told directly); returns its removal.
   */
  addNotifier(notifier: OfferNotifier): () => void;
  /** True when no request-state key was configured, so only this process can continue its own rounds. */
  readonly requestStateKeyIsRandom: boolean;
  /** The arguments of a tool that 2026-07-28 HTTP clients mirror into `Mcp-Param-*` headers (none for an unknown tool). */
  paramHeadersOf(toolName: string): readonly ParamHeader[];
  /** The OAuth scopes a tool needs (`defineTool({ scopes })`), none for an unknown tool. */
  scopesOf(toolName: string): readonly string[];
  /** Adds a tool and tells connected clients the list changed. */
  addTool(tool: AnyTool): void;
  /** Removes a tool by name and tells clients; false when there was none. */
  removeTool(name: string): boolean;
  addResource(resource: ResourceDefinition): void;
  /** Removes a resource by URI or a template by its template string. */
  removeResource(uriOrTemplate: string): boolean;
  addPrompt(prompt: AnyPrompt): void;
  removePrompt(name: string): boolean;
  /** Tells the clients subscribed to `uri` that it changed. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Aborts handlers in flight, closes every session, then runs `onClose`. Safe to call twice. */
  close(): Promise<void>;
}

/** The operations whose answers carry cache hints in the 2026-07-28 era. */
export type CacheableMethod =
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'server/discover';

/** Hears that the tools, prompts or resources changed (the shape of the SDK's `ServerNotifier`). */
export interface OfferNotifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

/** The round engine's modules, loaded by the first modern-era request that runs in rounds. */
const loadRoundModules = loadOnce('round engine', () =>
  Promise.all([import('./rounds/input-rounds.js'), import('./rounds/round-state.js')]),
);

/** The round engine that signs request state with `key`, its modules loaded on first use. */
async function loadInputRounds(key: Uint8Array, settings: ServerOptions['requestState']): Promise<InputRounds> {
  const [{ createInputRounds }, { createRoundStateCodec }] = await loadRoundModules();
  return createInputRounds({
    codec: createRoundStateCodec({
      key,
      ...(settings?.ttlSeconds !== undefined ? { ttlSeconds: settings.ttlSeconds } : {}),
    }),
    ...(settings?.maxRounds !== undefined ? { maxRounds: settings.maxRounds } : {}),
  });
}

/** Builds a server from its declarations; checks names and URIs for duplicates at once. */
export function createServer(options: ServerOptions): KitServer {
  const registry = new Registry();
  for (const tool of options.tools ?? []) registry.addTool(tool);
  for (const resource of options.resources ?? []) registry.addResource(resource);
  for (const prompt of options.prompts ?? []) registry.addPrompt(prompt);

  const budget = options.budget ?? defaultBudget;
  const pageSize = options.pageSize ?? 100;
  if (!(Number.isInteger(budget) && budget > 0) || !(Number.isInteger(pageSize) && pageSize > 0)) {
    throw new KitError('INVALID_OPTIONS', `Server "${options.name}": budget and pageSize must be positive integers.`);
  }

  // The key is checked now; the round engine (and the random key when none is configured) is loaded by the first
  // modern-era request that runs in rounds, so a server that only lists its tools never loads it (ADR 0020).
  const configuredKey = configuredRequestStateKey(options.requestState?.key, process.env);
  let rounds: Promise<InputRounds> | undefined;
  const loadRounds = () => {
    // A failed load is forgotten, so that a later request tries again.
    rounds ??= loadInputRounds(configuredKey ?? randomRequestStateKey(), options.requestState).catch(
      (error: unknown) => {
        rounds = undefined;
        throw error;
      },
    );
    return rounds;
  };

  const shutdown = new AbortController();
  const sessions = new Set<ClientSession>();
  const stderr = stderrSink(options.name, () => options.logLevel ?? 'info');
  const broadcast = (level: LogLevel, message: string, data: unknown) => {
    for (const session of sessions) session.clientSink(level, message, data);
  };
  const log = createLogger(stderr, broadcast);
  let closing: Promise<void> | undefined;

  const owner: SessionOwner = {
    name: options.name,
    version: options.version,
    ...(options.title ? { title: options.title } : {}),
    ...(options.instructions ? { instructions: options.instructions } : {}),
    registry,
    budget,
    pageSize,
    stderr,
    log: createLogger(stderr),
    rounds: loadRounds,
    middleware: options.middleware ?? [],
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.onRootsChanged
      ? { onRootsChanged: (roots: Root[], session: ClientSession) => options.onRootsChanged?.(roots, session) }
      : {}),
    ...(options.onToolsListed ? { onToolsListed: () => options.onToolsListed?.() } : {}),
    forget: (session) => sessions.delete(session),
  };

  const notifiers = new Set<OfferNotifier>();
  const notifyAll = (send: (session: ClientSession) => Promise<void>, tell: (notifier: OfferNotifier) => void) => {
    for (const session of sessions) send(session).catch(() => {});
    for (const notifier of notifiers) tell(notifier);
  };
  const toolsChanged = (notifier: OfferNotifier) => notifier.toolsChanged();
  const promptsChanged = (notifier: OfferNotifier) => notifier.promptsChanged();
  const resourcesChanged = (notifier: OfferNotifier) => notifier.resourcesChanged();

  return {
    name: options.name,
    version: options.version,
    log,
    signal: shutdown.signal,
    get sessionCount() {
      return sessions.size;
    },
    requestStateKeyIsRandom: configuredKey === undefined,
    paramHeadersOf: (toolName) => registry.tools.get(toolName)?.paramHeaders ?? [],
    scopesOf: (toolName) => registry.tools.get(toolName)?.definition.scopes ?? [],
    addNotifier(notifier) {
      notifiers.add(notifier);
      return () => notifiers.delete(notifier);
    },
    factory(context, factoryOptions) {
      if (shutdown.signal.aborted) throw new KitError('SERVER_CLOSED', `Server "${options.name}" is closed.`);
      const session = new ClientSession(owner, context.era);
      if (factoryOptions?.register ?? true) sessions.add(session);
      return session.server;
    },
    async connect(transport) {
      if (shutdown.signal.aborted) throw new KitError('SERVER_CLOSED', `Server "${options.name}" is closed.`);
      const session = new ClientSession(owner);
      sessions.add(session);
      await session.server.connect(transport);
      return session;
    },
    addTool(tool) {
      registry.addTool(tool);
      notifyAll((session) => session.server.sendToolListChanged(), toolsChanged);
    },
    removeTool(name) {
      const removed = registry.tools.delete(name);
      if (removed) notifyAll((session) => session.server.sendToolListChanged(), toolsChanged);
      return removed;
    },
    addResource(resource) {
      registry.addResource(resource);
      notifyAll((session) => session.server.sendResourceListChanged(), resourcesChanged);
    },
    removeResource(uriOrTemplate) {
      const removed = registry.removeResource(uriOrTemplate);
      if (removed) notifyAll((session) => session.server.sendResourceListChanged(), resourcesChanged);
      return removed;
    },
    addPrompt(prompt) {
      registry.addPrompt(prompt);
      notifyAll((session) => session.server.sendPromptListChanged(), promptsChanged);
    },
    removePrompt(name) {
      const removed = registry.prompts.delete(name);
      if (removed) notifyAll((session) => session.server.sendPromptListChanged(), promptsChanged);
      return removed;
    },
    async notifyResourceUpdated(uri) {
      for (const notifier of notifiers) notifier.resourceUpdated(uri);
      const subscribed = [...sessions].filter((session) => session.subscriptions.has(uri));
      await Promise.allSettled(subscribed.map((session) => session.server.sendResourceUpdated({ uri })));
    },
    close() {
      closing ??= (async () => {
        shutdown.abort(new Error(`Server "${options.name}" is shutting down.`));
        await Promise.allSettled([...sessions].map((session) => session.close()));
        sessions.clear();
        await options.onClose?.();
      })();
      return closing;
    },
  };
}
