import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Root,
  RootsListChangedNotificationSchema,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ClientInfo, RequestContext } from './context.js';
import type { Completer, ResourceListing } from './define-resource.js';
import { ToolError } from './errors.js';
import { describeIssues } from './json-schema.js';
import { createLogger, isLevelEnabled, type Logger, type LogLevel, type LogSink } from './logger.js';
import { paginate } from './pagination.js';
import { readResource } from './read-resource.js';
import type { Registry } from './registry.js';
import { runTool } from './run-tool.js';
import { createToolContext } from './tool-context.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a session needs from the server that owns it. */
export interface SessionHost {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly instructions?: string;
  readonly registry: Registry;
  readonly budget: number;
  readonly pageSize: number;
  readonly stderr: LogSink;
  readonly log: Logger;
  onRootsChanged?(roots: Root[], session: Session): void;
  forget(session: Session): void;
}

/** An MCP logging notification; an Error travels as its message only (its stack stays on stderr). */
function logNotification(level: LogLevel, logger: string, message: string, data: unknown): ServerNotification {
  const payload = data === undefined ? message : { message, data: data instanceof Error ? data.message : data };
  return { method: 'notifications/message', params: { level, logger, data: payload } };
}

/** How the SDK reports an answer that found no connection to travel on: the client went away first. */
const clientGone = /No connection established|Not connected/;

/** The level at which MCP log notifications start when the client has not set one. */
const defaultClientLogLevel: LogLevel = 'info';

/** One connection of a client to a kit server: its own SDK server, log level, subscriptions and roots. */
export class Session {
  readonly server: Server;
  readonly subscriptions = new Set<string>();
  private logLevel: LogLevel = defaultClientLogLevel;
  private rootsCache: Promise<Root[] | undefined> | undefined;
  private client: ClientInfo | undefined;

  constructor(private readonly host: SessionHost) {
    this.server = new Server(
      { name: host.name, version: host.version, ...(host.title ? { title: host.title } : {}) },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          logging: {},
          completions: {},
        },
        ...(host.instructions ? { instructions: host.instructions } : {}),
      },
    );
    this.server.onclose = () => {
      host.forget(this);
    };
    // A line that is not JSON-RPC, a response to nothing, a failed write: the connection goes on, but say so. A client
    // that left before its answers is normal (a closed tab, a cancelled fetch): said once, at debug level.
    let clientLeft = false;
    this.server.onerror = (error) => {
      if (!clientGone.test(error.message)) {
        host.log.warning(`MCP connection error (the connection goes on): ${error.message}`);
      } else if (!clientLeft) {
        clientLeft = true;
        host.log.debug(
          `A client went away before its answer was sent (not logged again for this session): ${error.message}`,
        );
      }
    };
    this.registerHandlers();
  }

  /** Connects the session's SDK server to a transport. */
  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
  }

  /** Closes the session's transport. */
  async close(): Promise<void> {
    await this.server.close();
  }

  /** Sends a log record to this client when it is at or above the level the client set. */
  readonly clientSink: LogSink = (level, message, data) => {
    if (!isLevelEnabled(level, this.logLevel) || this.server.transport === undefined) return;
    this.server.notification(logNotification(level, this.host.name, message, data)).catch(() => {});
  };

  /** The client on the other end. */
  clientInfo(): ClientInfo {
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

  /** The client's roots, fetched once and again on every change notification. */
  roots(): Promise<Root[] | undefined> {
    if (!this.clientInfo().supports('roots')) return Promise.resolve(undefined);
    this.rootsCache ??= this.server.listRoots().then(
      (result) => result.roots,
      (error: unknown) => {
        this.rootsCache = undefined;
        this.host.log.warning('Listing the client roots failed', error);
        return undefined;
      },
    );
    return this.rootsCache;
  }

  /**
   * A sink for the logs of one request: sent as related to that request, so that over Streamable HTTP they travel on
   * the request's own response stream (a client without a standalone GET stream would otherwise never see them).
   */
  private requestSink(extra: Extra): LogSink {
    return (level, message, data) => {
      if (!isLevelEnabled(level, this.logLevel)) return;
      extra.sendNotification(logNotification(level, this.host.name, message, data)).catch(() => {});
    };
  }

  private requestContext(extra: Extra, signal: AbortSignal): RequestContext {
    // The logger is built on first use: most calls never log, and this runs on every call.
    let log: Logger | undefined;
    const session = this;
    const context: RequestContext = {
      signal,
      get log() {
        log ??= createLogger(session.host.stderr, session.requestSink(extra));
        return log;
      },
      client: this.clientInfo(),
      roots: () => this.roots(),
    };
    if (extra.sessionId) context.sessionId = extra.sessionId;
    return context;
  }

  /**
   * The signal of one request. The SDK aborts it when the client cancels the request and when the connection closes,
   * which both session close and server shutdown cause; combining signals per call (AbortSignal.any) cost more than
   * all the rest of the kit's per-call work.
   */
  private signalFor(extra: Extra): AbortSignal {
    return extra.signal;
  }

  private page<T>(items: readonly T[], cursor: string | undefined) {
    try {
      return paginate(items, cursor, this.host.pageSize);
    } catch (error) {
      throw new McpError(ErrorCode.InvalidParams, error instanceof Error ? error.message : String(error));
    }
  }

  private findCompleter(ref: { type: string; name?: string; uri?: string }, argument: string): Completer | undefined {
    const { registry } = this.host;
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
  private handle<Schema extends z.ZodObject<{ method: z.ZodLiteral<string> }>>(
    schema: Schema,
    handler: (request: z.output<Schema>, extra: Extra) => ServerResult | Promise<ServerResult>,
  ): void {
    const method = schema.shape.method;
    this.server.setRequestHandler(z.looseObject({ method }), (request, extra) => {
      const parsed = schema.safeParse(request);
      if (!parsed.success) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid ${method.value} request: ${describeIssues(parsed.error)}.`,
        );
      }
      return handler(parsed.data, extra);
    });
  }

  private registerHandlers(): void {
    const { server } = this;
    const { registry } = this.host;

    this.handle(SetLevelRequestSchema, (request) => {
      this.logLevel = request.params.level;
      return {};
    });

    this.handle(ListToolsRequestSchema, (request) => {
      const page = this.page(
        Array.from(registry.tools.values(), (tool) => tool.listing),
        request.params?.cursor,
      );
      return { tools: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    this.handle(CallToolRequestSchema, (request, extra) => {
      const registered = registry.tools.get(request.params.name);
      if (!registered) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      return runTool(registered, request.params.arguments, {
        budget: this.host.budget,
        log: this.host.log,
        context: () => createToolContext(this.requestContext(extra, this.signalFor(extra)), extra, this),
      });
    });

    this.handle(ListResourcesRequestSchema, async (request, extra) => {
      const context = this.requestContext(extra, this.signalFor(extra));
      const listed: ResourceListing[] = Array.from(registry.resources.values(), (resource) => resource.listing);
      for (const template of registry.templates.values()) {
        if (template.definition.list) listed.push(...(await template.definition.list(context)));
      }
      const page = this.page(listed, request.params?.cursor);
      return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    this.handle(ListResourceTemplatesRequestSchema, (request) => {
      const page = this.page(
        Array.from(registry.templates.values(), (template) => template.listing),
        request.params?.cursor,
      );
      return { resourceTemplates: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    this.handle(ReadResourceRequestSchema, (request, extra) =>
      readResource(registry, request.params.uri, this.requestContext(extra, this.signalFor(extra)), this.host.log),
    );

    this.handle(SubscribeRequestSchema, (request) => {
      this.subscriptions.add(request.params.uri);
      return {};
    });

    this.handle(UnsubscribeRequestSchema, (request) => {
      this.subscriptions.delete(request.params.uri);
      return {};
    });

    this.handle(ListPromptsRequestSchema, (request) => {
      const page = this.page(
        Array.from(registry.prompts.values(), (prompt) => prompt.listing),
        request.params?.cursor,
      );
      return { prompts: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    this.handle(GetPromptRequestSchema, async (request, extra): Promise<GetPromptResult> => {
      const registered = registry.prompts.get(request.params.name);
      if (!registered) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
      const { definition } = registered;
      let args: unknown = request.params.arguments ?? {};
      if (definition.arguments) {
        const parsed = (definition.arguments as z.ZodObject).safeParse(args);
        if (!parsed.success) {
          throw new McpError(
            ErrorCode.InvalidParams,
            `Invalid arguments for prompt "${definition.name}": ${describeIssues(parsed.error)}.`,
          );
        }
        args = parsed.data;
      }
      let rendered: Awaited<ReturnType<typeof definition.render>>;
      try {
        rendered = await definition.render(args, this.requestContext(extra, this.signalFor(extra)));
      } catch (error) {
        if (ToolError.isInstance(error)) throw new McpError(ErrorCode.InvalidParams, error.message);
        this.host.log.error(`Prompt "${definition.name}" threw an unexpected error`, error);
        throw new McpError(
          ErrorCode.InternalError,
          `Rendering prompt "${definition.name}" failed with an internal error.`,
        );
      }
      if (typeof rendered === 'string') {
        return { messages: [{ role: 'user', content: { type: 'text', text: rendered } }] };
      }
      if (Array.isArray(rendered)) return { messages: rendered };
      return rendered;
    });

    this.handle(CompleteRequestSchema, async (request) => {
      const { ref, argument, context } = request.params;
      const completer = this.findCompleter(ref as { type: string; name?: string; uri?: string }, argument.name);
      const values = completer ? await completer(argument.value, { arguments: context?.arguments ?? {} }) : [];
      return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
    });

    server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
      this.rootsCache = undefined;
      const roots = await this.roots();
      if (roots) this.host.onRootsChanged?.(roots, this);
    });

    server.oninitialized = () => {
      if (!this.host.onRootsChanged || !this.clientInfo().supports('roots')) return;
      void this.roots().then((roots) => {
        if (roots) this.host.onRootsChanged?.(roots, this);
      });
    };
  }
}
