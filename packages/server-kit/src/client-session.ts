import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  ProtocolErrorCode as ErrorCode,
  type Implementation,
  LOG_LEVEL_META_KEY,
  type ProtocolEra,
  type Root,
  Server,
  type ServerCapabilities,
  type ServerContext,
  type ServerNotification,
  type ServerOptions,
  type ServerResult,
  type SpecTypes,
  type StandardSchemaV1,
  specTypeSchemas,
} from '@modelcontextprotocol/server';
import { identityOf } from './auth/identity.js';
import { boundedSentence, requestErrorChars } from './budget.js';
import type { ClientInfo, RequestContext, ToolContext } from './context.js';
import type { Completer, ResourceListing } from './define-resource.js';
import { errorMessage, ToolError } from './errors.js';
import { isThenable } from './is-thenable.js';
import { describeIssues } from './json-schema.js';
import { KitCodeLoadError, loadOnce } from './kit-code-loading.js';
import { createLogger, isLevelEnabled, type Logger, type LogLevel, type LogSink } from './logger.js';
import {
  type Caller,
  type Middleware,
  type MiddlewareDefinition,
  type MiddlewareMethod,
  runMiddleware,
} from './middleware/middleware.js';
import { type Page, paginate } from './pagination.js';
import type { RegisteredTool, Registry } from './registry.js';
import { RequestError } from './request-error.js';
import { errorResult } from './results.js';
import type { AskOptions, InputRounds, RoundRequest } from './rounds/input-rounds.js';
import type { ModernAsks } from './rounds/modern-asks.js';
import type { RunToolOptions } from './run-tool.js';
import { settleToolResult, transportSplices } from './structured-splice.js';

type Extra = ServerContext;

/** The request's `_meta` envelope (2.4.0's declarations type it as an empty object, so it is read as a record). */
function envelopeOf(context: ServerContext): Record<string, unknown> | undefined {
  return context.mcpReq.envelope as Record<string, unknown> | undefined;
}

/**
 * Params as the SDK hands them over (its own copy of the request's params, always an object), checked by the kit
 * itself: the SDK's own check answers with a zod dump. A Standard Schema that takes the object as it is, rather than
 * a zod schema that would parse and copy it once more on every request.
 */
const paramsAsGiven: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'mcpkit',
    validate: (value) =>
      isObject(value) ? { value } : { issues: [{ message: 'The request params must be an object.' }] },
  },
};

/** The method of each request type the kit answers. */
const requestMethods = {
  SetLevelRequest: 'logging/setLevel',
  CompleteRequest: 'completion/complete',
  ListToolsRequest: 'tools/list',
  CallToolRequest: 'tools/call',
  ListResourcesRequest: 'resources/list',
  ListResourceTemplatesRequest: 'resources/templates/list',
  ReadResourceRequest: 'resources/read',
  SubscribeRequest: 'resources/subscribe',
  UnsubscribeRequest: 'resources/unsubscribe',
  ListPromptsRequest: 'prompts/list',
  GetPromptRequest: 'prompts/get',
} as const;
type RequestTypeName = keyof typeof requestMethods;

/** One client's session with the server, as its author sees it. */
export interface KitSession {
  /** The client's roots, or undefined when it offers none. */
  roots(): Promise<Root[] | undefined>;
  /** Ends the connection. */
  close(): Promise<void>;
}

/** What a client session needs from the server that owns it. */
export interface SessionOwner {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly instructions?: string;
  readonly registry: Registry;
  readonly budget: number;
  readonly pageSize: number;
  readonly stderr: LogSink;
  readonly log: Logger;
  /** Runs modern-era calls in rounds (asks become `input_required` results); loaded by the first such call. */
  rounds(): Promise<InputRounds>;
  /** Cache hints per operation, for modern-era answers. */
  readonly cache?: ServerOptions['cacheHints'];
  /** The server's middleware, outermost first; empty for none. */
  readonly middleware: readonly Middleware[];
  onRootsChanged?(roots: Root[], session: ClientSession): void;
  onToolsListed?(): void;
  forget(session: ClientSession): void;
}

/** An MCP logging notification; an Error travels as its message only (its stack stays on stderr). */
function logNotification(level: LogLevel, logger: string, message: string, data: unknown): ServerNotification {
  const payload = data === undefined ? message : { message, data: data instanceof Error ? data.message : data };
  return { method: 'notifications/message', params: { level, logger, data: payload } };
}

// What no tools/list needs is loaded by the first request that does (ADR 0020): prompts/get, resources/read, and the
// asks of a modern-era round.
const loadGetPrompt = loadOnce('prompts/get', () => import('./get-prompt.js'));
const loadReadResource = loadOnce('resources/read', () => import('./read-resource.js'));
const loadModernAsks = loadOnce('round asks', () => import('./rounds/modern-asks.js'));
/** The asks' module once loaded, so that a modern-era call after the first waits for nothing. */
let modernAsksLoaded: typeof import('./rounds/modern-asks.js') | undefined;

// The tool-call path (ADR 0020): loaded right after the first tools/list answer is written, or by the first call or
// prompts/get that comes before it. Once loaded, a call runs synchronously as before (ADR 0011): one check, no promise.
type CallPath = typeof import('./call-path.js');
const loadCallPathModule = loadOnce('tool-call', () => import('./call-path.js'));
let callPath: CallPath | undefined;
let callPathSoon = false;

/**
 * The call path, loaded once ({@link loadOnce}: a failed load is forgotten, so that a later call tries again); a
 * request that needed it answers a failure with {@link callPathMissing}.
 */
function loadCallPath(): Promise<CallPath> {
  return loadCallPathModule().then((loaded) => {
    callPath = loaded;
    return loaded;
  });
}

/** The answer to a call whose code could not be loaded: an internal error; the log has the file and why. */
const callPathMissing = () =>
  new RequestError(
    ErrorCode.InternalError,
    "The server could not load the code that runs tools; the server's log has the details.",
  );

/** The answer to any other request whose code could not be loaded, likewise. */
const loadingFailedAnswer = () =>
  new RequestError(
    ErrorCode.InternalError,
    "The server could not load the code that answers this request; the server's log has the details.",
  );

/**
 * Starts loading the call path after the answer being written now: a check-phase callback runs once the request's
 * microtasks (the handler's result, the SDK's send, the transport's write) are done. A failure is logged, and left to
 * the first call, which loads again and answers with it.
 */
function loadCallPathSoon(log: Logger): void {
  if (callPathSoon || callPath !== undefined) return;
  callPathSoon = true;
  setImmediate(() => {
    loadCallPath().catch((error: unknown) =>
      log.error('Loading the tool-call code ahead of the first call failed', error),
    );
  }).unref();
}

/** How the SDK reports an answer that found no connection to travel on: the client went away first. */
const clientGone = /No connection established|Not connected/;

/**
 * What the server offers a client that connects now: a kind it has none of (tools, resources, prompts) is not
 * advertised, so a client does not list what is always empty; completions go with prompts and resource templates.
 */
function offered(registry: Registry): ServerCapabilities {
  const resources = registry.resources.size > 0 || registry.templates.size > 0;
  const prompts = registry.prompts.size > 0;
  return {
    ...(registry.tools.size > 0 ? { tools: { listChanged: true } } : {}),
    ...(resources ? { resources: { subscribe: true, listChanged: true } } : {}),
    ...(prompts ? { prompts: { listChanged: true } } : {}),
    logging: {},
    ...(prompts || registry.templates.size > 0 ? { completions: {} } : {}),
  };
}

/** The level at which MCP log notifications start when the client has not set one. */
const defaultClientLogLevel: LogLevel = 'info';

/**
 * The kit's side of one client's session (the `KitSession` authors see): its own SDK server, log level, subscriptions
 * and roots.
 */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A tools/call whose params hold only a name, argument object and `_meta` with a valid progress token, if any. */
function isPlainToolCall(params: unknown): boolean {
  if (!isObject(params) || typeof params.name !== 'string') return false;
  for (const key in params) if (key !== 'name' && key !== 'arguments' && key !== '_meta') return false;
  if (params.arguments !== undefined && !isObject(params.arguments)) return false;
  if (params._meta === undefined) return true;
  if (!isObject(params._meta)) return false;
  const token = params._meta.progressToken;
  return token === undefined || typeof token === 'string' || Number.isInteger(token);
}

/** Numbers connections, for the caller key of a 2025-11-25 connection without a session id. */
let connections = 0;

/** The resource or template a URI reads, the first template that matches as the read itself picks it. */
function resourceDefinitionOf(registry: Registry, uri: string): MiddlewareDefinition | undefined {
  const fixed = registry.resources.get(uri);
  if (fixed) return fixed.definition;
  for (const template of registry.templates.values()) if (template.matcher.match(uri)) return template.definition;
  return undefined;
}

export class ClientSession implements KitSession {
  readonly server: Server;
  private readonly connection = ++connections;
  readonly subscriptions = new Set<string>();
  private logLevel: LogLevel = defaultClientLogLevel;
  private rootsCache: Promise<Root[] | undefined> | undefined;
  /** The round engine once loaded (the owner's promise of it resolved). */
  private roundEngine: InputRounds | undefined;
  private client: ClientInfo | undefined;

  constructor(
    private readonly owner: SessionOwner,
    /** The protocol era this session's server speaks: fixed for its lifetime. */
    readonly era: ProtocolEra = 'legacy',
  ) {
    const capabilities = offered(owner.registry);
    this.server = new Server(
      { name: owner.name, version: owner.version, ...(owner.title ? { title: owner.title } : {}) },
      {
        capabilities,
        ...(owner.instructions ? { instructions: owner.instructions } : {}),
        // The kit never returns input_required to a 2025 client (it asks with server→client requests there).
        inputRequired: { legacyShim: false },
        ...(owner.cache ? { cacheHints: owner.cache } : {}),
      },
    );
    this.server.onclose = () => {
      owner.forget(this);
    };
    // A line that is not JSON-RPC, a response to nothing, a failed write: the connection goes on, but say so. A client
    // that left before its answers is normal (a closed tab, a cancelled fetch): said once, at debug level.
    let clientLeft = false;
    this.server.onerror = (error) => {
      if (!clientGone.test(error.message)) {
        owner.log.warning(`MCP connection error (the connection goes on): ${error.message}`);
      } else if (!clientLeft) {
        clientLeft = true;
        owner.log.debug(
          `A client went away before its answer was sent (not logged again for this session): ${error.message}`,
        );
      }
    };
    this.registerHandlers(capabilities);
  }

  /** Closes the session's transport. */
  async close(): Promise<void> {
    await this.server.close();
  }

  /** Sends a log record to this client when it is at or above the level the client set. */
  readonly clientSink: LogSink = (level, message, data) => {
    if (this.era === 'modern') return;
    if (!isLevelEnabled(level, this.logLevel) || this.server.transport === undefined) return;
    this.server.notification(logNotification(level, this.owner.name, message, data)).catch(() => {});
  };

  /** The client on the other end: declared at initialize (legacy), or in each request's `_meta` (modern). */
  clientInfo(context?: Extra): ClientInfo {
    if (this.era === 'modern') {
      const envelope = context ? envelopeOf(context) : undefined;
      const implementation = envelope?.[CLIENT_INFO_META_KEY] as Implementation | undefined;
      const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
      return {
        ...(implementation?.name ? { name: implementation.name } : {}),
        ...(implementation?.version ? { version: implementation.version } : {}),
        supports: (capability) => declared?.[capability] !== undefined,
      };
    }
    if (this.client) return this.client;
    const version = this.server.getClientVersion();
    const capabilities = this.server.getClientCapabilities();
    const client: ClientInfo = {
      ...(version?.name ? { name: version.name } : {}),
      ...(version?.version ? { version: version.version } : {}),
      supports: (capability) => capabilities?.[capability] !== undefined,
    };
    // What the client is and can do is fixed by initialize, so it is read once that has happened.
    if (capabilities !== undefined) this.client = client;
    return client;
  }

  /**
   * The client's roots, fetched once and again on every change notification. A client that offers roots and fails to
   * list them fails the request with a sentence (a ToolError), and the next request asks again: answering as if it
   * offered none would let a server fall back to everything it was started with, wider than the client chose. One
   * that answers roots/list with "method not found" offers none after all.
   */
  roots(): Promise<Root[] | undefined> {
    // A modern client has no session to ask outside a call; its tools ask within the call (ctx.roots).
    if (this.era === 'modern' || !this.clientInfo().supports('roots')) return Promise.resolve(undefined);
    this.rootsCache ??= this.server.listRoots().then(
      (result) => result.roots,
      (error: unknown) => {
        this.rootsCache = undefined;
        this.owner.log.warning('Listing the client roots failed', error);
        // A client that declares roots and has no roots/list offers none: it never chose a narrower set.
        if ((error as { code?: unknown }).code === ErrorCode.MethodNotFound) return undefined;
        throw new ToolError(
          `The client's roots could not be listed (${errorMessage(error).slice(0, 200)}), and they limit what this server may use, so nothing was done; try again.`,
        );
      },
    );
    return this.rootsCache;
  }

  /** The roots for a change's listeners: a failure to list them is logged by `roots()` and tells them nothing. */
  private rootsForListeners(): Promise<Root[] | undefined> {
    return this.roots().catch(() => undefined);
  }

  /**
   * A logger for one request: stderr, and the client as notifications related to that request, so that over
   * Streamable HTTP they travel on the request's own response stream (a client without a standalone GET stream would
   * otherwise never see them).
   */
  requestLogger(extra: Extra): Logger {
    // A modern request carries its own level; without one the client gets no logs (stderr still does).
    const threshold =
      this.era === 'modern' ? (envelopeOf(extra)?.[LOG_LEVEL_META_KEY] as LogLevel | undefined) : this.logLevel;
    return createLogger(this.owner.stderr, (level, message, data) => {
      if (threshold === undefined || !isLevelEnabled(level, threshold)) return;
      extra.mcpReq.notify(logNotification(level, this.owner.name, message, data)).catch(() => {});
    });
  }

  /**
   * The context of one request. Its signal is the SDK's: aborted when the client cancels the request (over HTTP, also
   * when the request's connection closes first) and when the session closes or the server shuts down.
   */
  private requestContext(extra: Extra, roundSignal?: () => AbortSignal): RequestContext {
    // The logger is built on first use: most calls never log, and this runs on every call.
    let log: Logger | undefined;
    const session = this;
    const context: RequestContext = {
      // In a round, the round's signal: also aborted when the round ends asking, so that work in flight stops.
      get signal() {
        return roundSignal ? roundSignal() : extra.mcpReq.signal;
      },
      get log() {
        log ??= session.requestLogger(extra);
        return log;
      },
      client: this.clientInfo(extra),
      roots: () => this.roots(),
    };
    if (extra.sessionId) context.sessionId = extra.sessionId;
    if (extra.http?.authInfo) context.auth = identityOf(extra.http.authInfo);
    return context;
  }

  /**
   * Runs a modern-era call in the round engine: answers come from the request (`inputResponses`, signed
   * `requestState`), open asks end the round as an `input_required` result.
   */
  private async inRounds<Result extends ServerResult>(
    call: Parameters<InputRounds['run']>[0],
    extra: Extra,
    run: (asks: ModernAsks, signal: () => AbortSignal) => Result | Promise<Result>,
  ): Promise<ServerResult> {
    const clientCapabilities = envelopeOf(extra)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    const request: RoundRequest = {
      requestState: extra.mcpReq.requestState(),
      inputResponses: extra.mcpReq.inputResponses,
      ...(extra.mcpReq.droppedInputResponseKeys
        ? { droppedInputResponseKeys: extra.mcpReq.droppedInputResponseKeys }
        : {}),
      ...(clientCapabilities ? { clientCapabilities } : {}),
    };
    // Loaded together by the first modern-era call; later calls find them at once.
    if (this.roundEngine === undefined || modernAsksLoaded === undefined) {
      [this.roundEngine, modernAsksLoaded] = await this.needing(
        `${call.method} "${call.target}"`,
        Promise.all([this.owner.rounds(), loadModernAsks()]),
      );
    }
    const { createModernAsks } = modernAsksLoaded;
    const outcome = await this.roundEngine.run(call, request, extra.mcpReq.signal, (asker, signal) =>
      run(createModernAsks(asker, clientCapabilities), signal),
    );
    return outcome.kind === 'complete' ? outcome.value : (outcome.result as ServerResult);
  }

  /** One page of a list answer: `{ [key]: items, nextCursor? }`; a bad cursor is invalid params. */
  private page<Key extends string, T>(key: Key, items: readonly T[], cursor: string | undefined) {
    let page: Page<T>;
    try {
      page = paginate(items, cursor, this.owner.pageSize);
    } catch (error) {
      throw new RequestError(ErrorCode.InvalidParams, errorMessage(error));
    }
    return { [key]: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) } as Record<Key, T[]> & {
      nextCursor?: string;
    };
  }

  private findCompleter(ref: { type: string; name?: string; uri?: string }, argument: string): Completer | undefined {
    const { registry } = this.owner;
    if (ref.type === 'ref/prompt' && ref.name !== undefined) {
      return registry.prompts.get(ref.name)?.definition.complete?.[argument];
    }
    if (ref.type === 'ref/resource' && ref.uri !== undefined) {
      return registry.templates.get(ref.uri)?.definition.complete?.[argument];
    }
    return undefined;
  }

  /**
   * Registers a request handler whose malformed requests get JSON-RPC invalid params (-32602) with a readable list of
   * what is wrong. Registered with the SDK directly, a request failing the SDK's schema would come back as an internal
   * error (-32603) carrying a dump of zod issues, as if the server had failed.
   */
  private handle<Name extends RequestTypeName>(
    typeName: Name,
    handler: (request: SpecTypes[Name], extra: Extra) => ServerResult | Promise<ServerResult>,
    isPlain?: (params: unknown) => boolean,
    definitionOf?: (request: SpecTypes[Name]) => MiddlewareDefinition | undefined,
  ): void {
    // The SDK's own lazily built schema of the request type (no second copy of the spec's schemas is loaded).
    const schema = specTypeSchemas[typeName]['~standard'];
    const method = requestMethods[typeName];
    const chained =
      method !== 'logging/setLevel' && method !== 'resources/subscribe' && method !== 'resources/unsubscribe';
    // Without server middleware and without definitions to carry their own, the handler is called as it is.
    const run =
      chained && (this.owner.middleware.length > 0 || definitionOf !== undefined)
        ? (request: SpecTypes[Name], extra: Extra) =>
            this.intercept(method as MiddlewareMethod, request, extra, handler, definitionOf)
        : handler;
    // After the middleware, a tool result whose structured content is still JSON text is parsed, or left for a
    // transport that writes it into the line as it is (ADR 0018).
    const settle = (result: ServerResult, request: SpecTypes[Name]) =>
      settleToolResult(
        result,
        transportSplices(this.server),
        this.owner.log,
        String((request.params as { name?: unknown }).name),
      );
    // A call answered synchronously (the kit's common path) is settled at once, without a promise of the kit's own.
    const answer =
      method === 'tools/call'
        ? (request: SpecTypes[Name], extra: Extra) => {
            const result = run(request, extra);
            return isThenable(result)
              ? Promise.resolve(result as PromiseLike<ServerResult>).then((settled) => settle(settled, request))
              : settle(result, request);
          }
        : run;
    this.server.setRequestHandler(method, { params: paramsAsGiven }, (params, extra) => {
      // The common shape skips the schema (a full parse per call); anything else gets it, and its readable errors.
      if (isPlain?.(params)) return answer({ method, params } as SpecTypes[Name], extra);
      const checked = schema.validate({ method, params });
      if (checked.issues) {
        throw new RequestError(ErrorCode.InvalidParams, `Invalid ${method} request: ${describeIssues(checked)}.`);
      }
      return answer(checked.value as SpecTypes[Name], extra);
    });
  }

  /**
   * Runs a request through the server's middleware, then its definition's own, then `handler`. Nothing is allocated
   * when neither has any: the definition is looked up and the handler called.
   */
  private intercept<Request extends { params?: object }>(
    method: MiddlewareMethod,
    request: Request,
    extra: Extra,
    handler: (request: Request, extra: Extra) => ServerResult | Promise<ServerResult>,
    definitionOf: ((request: Request) => MiddlewareDefinition | undefined) | undefined,
  ): ServerResult | Promise<ServerResult> {
    const definition = definitionOf?.(request);
    const own = definition?.middleware;
    const server = this.owner.middleware;
    if (server.length === 0 && (own === undefined || own.length === 0)) return handler(request, extra);
    const params = (request.params ?? {}) as Record<string, unknown>;
    const target =
      method === 'tools/call' || method === 'prompts/get'
        ? params.name
        : method === 'resources/read'
          ? params.uri
          : method === 'completion/complete'
            ? ((params.ref as { name?: unknown; uri?: unknown } | undefined)?.name ??
              (params.ref as { uri?: unknown } | undefined)?.uri)
            : undefined;
    const args = method === 'tools/call' || method === 'prompts/get' ? params.arguments : undefined;
    return runMiddleware(
      own && own.length > 0 ? [...server, ...own] : server,
      {
        method,
        target: typeof target === 'string' ? target : undefined,
        arguments: isObject(args) ? args : undefined,
        definition,
        params,
        caller: this.callerOf(extra),
        era: this.era,
        signal: extra.mcpReq.signal,
      },
      () => handler(request, extra),
    );
  }

  /** Who sent a request, for middleware. */
  private callerOf(extra: Extra): Caller {
    const auth = extra.http?.authInfo ? identityOf(extra.http.authInfo) : undefined;
    const key = auth
      ? auth.subject !== undefined
        ? `subject:${auth.subject}`
        : `client:${auth.clientId}`
      : extra.sessionId
        ? `session:${extra.sessionId}`
        : this.era === 'legacy'
          ? `connection:${this.connection}`
          : 'anonymous';
    return {
      key,
      ...(extra.sessionId ? { sessionId: extra.sessionId } : {}),
      ...(auth ? { auth } : {}),
      client: this.clientInfo(extra),
    };
  }

  private registerHandlers(capabilities: ServerCapabilities): void {
    if (this.era === 'legacy') {
      this.handle('SetLevelRequest', (request) => {
        this.logLevel = request.params.level;
        return {};
      });
    }
    if (capabilities.tools) this.registerToolHandlers();
    if (capabilities.resources) this.registerResourceHandlers();
    if (capabilities.prompts) this.registerPromptHandlers();
    if (capabilities.completions) {
      this.handle(
        'CompleteRequest',
        async (request) => {
          const { ref, argument, context } = request.params;
          const completer = this.findCompleter(ref as { type: string; name?: string; uri?: string }, argument.name);
          const values = completer ? await completer(argument.value, { arguments: context?.arguments ?? {} }) : [];
          return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
        },
        undefined,
        (request) => {
          const ref = request.params.ref as { type: string; name?: string; uri?: string };
          const { registry } = this.owner;
          if (ref.type === 'ref/prompt')
            return ref.name === undefined ? undefined : registry.prompts.get(ref.name)?.definition;
          return ref.uri === undefined ? undefined : registry.templates.get(ref.uri)?.definition;
        },
      );
    }
    if (this.era === 'legacy') this.registerRootsHandlers();
  }

  /**
   * `loading` for a request (`what` names it in the log): when a part of the kit's code could not be loaded, the log
   * gets which file and why, and the request answers with `answer`, an internal error of the kit's own words.
   */
  private needing<Loaded>(what: string, loading: Promise<Loaded>, answer = loadingFailedAnswer): Promise<Loaded> {
    return loading.catch((error: unknown) => {
      if (!(error instanceof KitCodeLoadError)) throw error;
      this.owner.log.error(`${what} could not run`, error);
      throw answer();
    });
  }

  /** The call path for a request (`what` names it in the log); a failed load answers as {@link callPathMissing}. */
  private loadCallPathFor(what: string): Promise<CallPath> {
    return this.needing(what, loadCallPath(), callPathMissing);
  }

  /** Starts loading a modern-era call's round engine and asks beside the call path, instead of after it. */
  private loadRoundsSoon(): void {
    if (this.roundEngine !== undefined && modernAsksLoaded !== undefined) return;
    // A failure here is the call's to report, when `inRounds` waits for the same loads.
    Promise.all([this.owner.rounds(), loadModernAsks()]).catch(() => {});
  }

  private registerToolHandlers(): void {
    const { registry } = this.owner;
    // Made once for the session's calls, so that a call allocates none of them (ADR 0011).
    const options: RunToolOptions = { budget: this.owner.budget, log: this.owner.log };
    // Called by `runTool` only, which runs once the call path is loaded.
    const legacyContext = (extra: Extra) => (callPath as CallPath).createToolContext(this, extra);
    this.handle('ListToolsRequest', (request) => {
      this.owner.onToolsListed?.();
      loadCallPathSoon(this.owner.log);
      return this.page(
        'tools',
        Array.from(registry.tools.values(), (tool) => tool.listing),
        request.params?.cursor,
      );
    });
    this.handle(
      'CallToolRequest',
      (request, extra) => {
        const registered = registry.tools.get(request.params.name);
        if (!registered) {
          throw new RequestError(
            ErrorCode.InvalidParams,
            boundedSentence(`Unknown tool: ${request.params.name}`, requestErrorChars),
          );
        }
        const path = callPath;
        if (path === undefined) {
          if (this.era !== 'legacy') this.loadRoundsSoon();
          return this.loadCallPathFor(`Tool "${registered.definition.name}"`).then((loaded) =>
            this.callTool(loaded, registered, request.params.arguments, options, legacyContext, extra),
          );
        }
        return this.callTool(path, registered, request.params.arguments, options, legacyContext, extra);
      },
      isPlainToolCall,
      (request) => registry.tools.get(request.params.name)?.definition,
    );
  }

  /** Runs a call once the call path is loaded: synchronously in the legacy era when the tool answers so. */
  private callTool(
    path: CallPath,
    registered: RegisteredTool,
    args: Record<string, unknown> | undefined,
    options: RunToolOptions,
    legacyContext: (extra: Extra) => ToolContext,
    extra: Extra,
  ): ServerResult | Promise<ServerResult> {
    if (this.era === 'legacy') return path.runTool(registered, args, options, legacyContext, extra);
    return this.inRounds(
      { method: 'tools/call', target: registered.definition.name, arguments: args ?? {} },
      extra,
      (asks, signal) =>
        path.runTool(
          registered,
          args,
          options,
          (call: Extra) => path.createModernToolContext(this, call, asks, signal),
          extra,
        ),
    ).catch((error: unknown) => {
      // The round limits speak to the model like any failure of the tool.
      if (ToolError.isInstance(error)) return errorResult(error.message);
      throw error;
    });
  }

  private registerResourceHandlers(): void {
    const { registry } = this.owner;
    this.handle('ListResourcesRequest', async (request, extra) => {
      const context = this.requestContext(extra);
      const listed: ResourceListing[] = Array.from(registry.resources.values(), (resource) => resource.listing);
      for (const template of registry.templates.values()) {
        if (template.definition.list) listed.push(...(await template.definition.list(context)));
      }
      return this.page('resources', listed, request.params?.cursor);
    });
    this.handle('ListResourceTemplatesRequest', (request) =>
      this.page(
        'resourceTemplates',
        Array.from(registry.templates.values(), (template) => template.listing),
        request.params?.cursor,
      ),
    );
    this.handle(
      'ReadResourceRequest',
      (request, extra) => {
        const { uri } = request.params;
        if (this.era === 'legacy') {
          return this.needing(`Resource "${uri}"`, loadReadResource()).then(({ readResource }) =>
            readResource(registry, uri, this.requestContext(extra), this.owner.log),
          );
        }
        // A modern client has no session to remember roots by: a read that needs them asks within the request.
        return this.inRounds({ method: 'resources/read', target: uri }, extra, async (asks, signal) =>
          (await this.needing(`Resource "${uri}"`, loadReadResource())).readResource(
            registry,
            uri,
            Object.assign(this.requestContext(extra, signal), { roots: (options?: AskOptions) => asks.roots(options) }),
            this.owner.log,
            true,
          ),
        ).catch((error: unknown) => {
          // The round limits of a read are the client's problem to fix, like a bad URI.
          if (ToolError.isInstance(error)) throw new RequestError(ErrorCode.InvalidParams, error.message);
          throw error;
        });
      },
      undefined,
      (request) => resourceDefinitionOf(registry, request.params.uri),
    );
    if (this.era === 'modern') return;
    this.handle('SubscribeRequest', (request) => {
      this.subscriptions.add(request.params.uri);
      return {};
    });
    this.handle('UnsubscribeRequest', (request) => {
      this.subscriptions.delete(request.params.uri);
      return {};
    });
  }

  private registerPromptHandlers(): void {
    const { registry } = this.owner;
    this.handle('ListPromptsRequest', (request) =>
      this.page(
        'prompts',
        Array.from(registry.prompts.values(), (prompt) => prompt.listing),
        request.params?.cursor,
      ),
    );
    this.handle(
      'GetPromptRequest',
      (request, extra) => {
        const { name, arguments: args } = request.params;
        if (this.era === 'legacy') {
          return Promise.all([
            this.needing(`Prompt "${name}"`, loadGetPrompt()),
            this.loadCallPathFor(`Prompt "${name}"`),
          ]).then(([{ getPrompt }, path]) =>
            getPrompt(registry, name, args, path.createToolContext(this, extra), this.owner.log),
          );
        }
        return this.inRounds(
          { method: 'prompts/get', target: name, arguments: args ?? {} },
          extra,
          async (asks, signal) => {
            const [{ getPrompt }, path] = await Promise.all([
              this.needing(`Prompt "${name}"`, loadGetPrompt()),
              this.loadCallPathFor(`Prompt "${name}"`),
            ]);
            return getPrompt(
              registry,
              name,
              args,
              path.createModernToolContext(this, extra, asks, signal),
              this.owner.log,
            );
          },
        ).catch((error: unknown) => {
          // The round limits of a prompt are the client's problem to fix, like its arguments.
          if (ToolError.isInstance(error)) throw new RequestError(ErrorCode.InvalidParams, error.message);
          throw error;
        });
      },
      undefined,
      (request) => registry.prompts.get(request.params.name)?.definition,
    );
  }

  private registerRootsHandlers(): void {
    const { server } = this;
    server.setNotificationHandler('notifications/roots/list_changed', async () => {
      this.rootsCache = undefined;
      const roots = await this.rootsForListeners();
      if (roots) this.owner.onRootsChanged?.(roots, this);
    });

    server.oninitialized = () => {
      if (!this.owner.onRootsChanged || !this.clientInfo().supports('roots')) return;
      void this.rootsForListeners().then((roots) => {
        if (roots) this.owner.onRootsChanged?.(roots, this);
      });
    };
  }
}
