import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  type ElicitRequestFormParams,
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Root,
  RootsListChangedNotificationSchema,
  type ServerNotification,
  type ServerRequest,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { applyBudget } from './budget.js';
import type { ClientInfo, ElicitOutcome, RequestContext, SampleRequest, ToolContext } from './context.js';
import type { Completer, ResourceBody, ResourceListing } from './define-resource.js';
import { ToolError } from './errors.js';
import { describeIssues, objectJsonSchema } from './json-schema.js';
import { createLogger, isLevelEnabled, type Logger, type LogLevel, type LogSink } from './logger.js';
import { paginate } from './pagination.js';
import type { RegisteredTool, Registry } from './registry.js';
import { errorResult, isToolResult, toToolResult } from './results.js';

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
  readonly signal: AbortSignal;
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

/** Parses synchronously, the common case; undefined when the schema has async parts and needs `safeParseAsync`. */
function parseArguments(schema: z.ZodObject, args: unknown): ReturnType<z.ZodObject['safeParse']> | undefined {
  try {
    return schema.safeParse(args);
  } catch {
    return undefined;
  }
}

/** The SDK's complaint about an elicitation answer that does not match the form, made readable; else undefined. */
function schemaMismatch(error: unknown): string | undefined {
  if (!(error instanceof McpError) || error.code !== ErrorCode.InvalidParams) return undefined;
  const match = /does not match requested schema:\s*(.*)$/s.exec(error.message);
  return match?.[1]?.replace(/\bdata\//g, '').replace(/\//g, '.');
}

/** The level at which MCP log notifications start when the client has not set one. */
const defaultClientLogLevel: LogLevel = 'info';

/** One connection of a client to a kit server: its own SDK server, log level, subscriptions and roots. */
export class Session {
  readonly server: Server;
  readonly subscriptions = new Set<string>();
  readonly log: Logger;
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
    this.log = createLogger(host.stderr, this.clientSink());
    this.server.onclose = () => {
      host.forget(this);
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
  clientSink(): LogSink {
    return (level, message, data) => {
      if (!isLevelEnabled(level, this.logLevel) || this.server.transport === undefined) return;
      this.server.notification(logNotification(level, this.host.name, message, data)).catch(() => {});
    };
  }

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

  private toolContext(extra: Extra, signal: AbortSignal): ToolContext {
    const progressToken = extra._meta?.progressToken;
    return Object.assign(this.requestContext(extra, signal), {
      progress: async (done: number, total?: number, message?: string) => {
        if (progressToken === undefined) return;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress: done,
            ...(total !== undefined ? { total } : {}),
            ...(message !== undefined ? { message } : {}),
          },
        });
      },
      sample: async (request: SampleRequest) => {
        if (!this.clientInfo().supports('sampling')) {
          throw new ToolError('This client does not support sampling, so the tool cannot ask its model.');
        }
        const params =
          'prompt' in request
            ? {
                messages: [{ role: 'user' as const, content: { type: 'text' as const, text: request.prompt } }],
                maxTokens: request.maxTokens ?? 1000,
                ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
              }
            : request;
        return this.server.createMessage(params, { signal, relatedRequestId: extra.requestId });
      },
      elicit: async <Schema extends z.ZodObject>(
        message: string,
        schema: Schema,
      ): Promise<ElicitOutcome<z.output<Schema>>> => {
        if (!this.clientInfo().supports('elicitation')) {
          throw new ToolError('This client does not support elicitation, so the tool cannot ask the user.');
        }
        const requestedSchema = objectJsonSchema(schema, 'input') as ElicitRequestFormParams['requestedSchema'];
        const answer = await this.server
          .elicitInput({ mode: 'form', message, requestedSchema }, { signal, relatedRequestId: extra.requestId })
          .catch((error: unknown) => {
            // The SDK checks an accepted answer against the JSON Schema first; its verdict is for the model too.
            const detail = schemaMismatch(error);
            if (detail === undefined) throw error;
            throw new ToolError(`The answer to the form was not valid: ${detail}.`);
          });
        if (answer.action !== 'accept') return { action: answer.action };
        const parsed = schema.safeParse(answer.content ?? {});
        if (!parsed.success)
          throw new ToolError(`The answer to the form was not valid: ${describeIssues(parsed.error)}.`);
        return { action: 'accept', content: parsed.data };
      },
      roots: () => this.roots(),
    });
  }

  private async callTool(registered: RegisteredTool, args: unknown, extra: Extra): Promise<CallToolResult> {
    const { definition } = registered;
    const parsed = parseArguments(registered.input, args ?? {}) ?? (await registered.input.safeParseAsync(args ?? {}));
    if (!parsed.success) {
      return errorResult(`Invalid arguments for tool "${definition.name}": ${describeIssues(parsed.error)}.`);
    }
    const signal = this.signalFor(extra);
    try {
      const value = await definition.handler(parsed.data, this.toolContext(extra, signal));
      let result: CallToolResult;
      if (definition.output) {
        const structured = isToolResult(value) ? value.structuredContent : value;
        const checked = (definition.output as z.ZodObject).safeParse(structured);
        if (!checked.success) {
          this.host.log.error(
            `Tool "${definition.name}" returned a value that does not match its output schema: ${describeIssues(checked.error)}`,
          );
          return errorResult(
            `The tool "${definition.name}" failed with an internal error; the server's log has the details.`,
          );
        }
        result = isToolResult(value)
          ? { ...value, structuredContent: checked.data }
          : {
              content: [{ type: 'text', text: JSON.stringify(checked.data, null, 2) }],
              structuredContent: checked.data,
            };
      } else {
        result = toToolResult(value);
      }
      return applyBudget(result, definition.budget ?? this.host.budget, definition.truncationHint);
    } catch (error) {
      if (ToolError.isInstance(error)) return errorResult(error.message);
      if (signal.aborted) return errorResult(`The call to "${definition.name}" was cancelled before it finished.`);
      this.host.log.error(`Tool "${definition.name}" threw an unexpected error`, error);
      return errorResult(
        `The tool "${definition.name}" failed with an internal error; the server's log has the details.`,
      );
    }
  }

  private page<T>(items: readonly T[], cursor: string | undefined) {
    try {
      return paginate(items, cursor, this.host.pageSize);
    } catch (error) {
      throw new McpError(ErrorCode.InvalidParams, error instanceof Error ? error.message : String(error));
    }
  }

  private async readResource(uri: string, extra: Extra): Promise<ReadResourceResult> {
    const { registry } = this.host;
    const context = this.requestContext(extra, this.signalFor(extra));
    let body: ResourceBody | undefined;
    let mimeType: string | undefined;
    try {
      const fixed = registry.resources.get(uri);
      if (fixed) {
        mimeType = fixed.definition.mimeType;
        body = await fixed.definition.read(context);
      } else {
        for (const template of registry.templates.values()) {
          const variables = template.matcher.match(uri);
          if (!variables) continue;
          mimeType = template.definition.mimeType;
          body = await template.definition.read(uri, variables, context);
          break;
        }
      }
    } catch (error) {
      if (ToolError.isInstance(error)) throw new McpError(ErrorCode.InvalidParams, error.message);
      this.host.log.error(`Reading resource ${uri} threw an unexpected error`, error);
      throw new McpError(ErrorCode.InternalError, `Reading ${uri} failed with an internal error.`);
    }
    if (body === undefined) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`);
    const contents = (Array.isArray(body) ? body : [typeof body === 'string' ? { text: body } : body]).map(
      (content) => {
        const type = content.mimeType ?? mimeType;
        const base = { uri: content.uri ?? uri, ...(type ? { mimeType: type } : {}) };
        if ('text' in content) return { ...base, text: content.text };
        const blob = typeof content.blob === 'string' ? content.blob : Buffer.from(content.blob).toString('base64');
        return { ...base, blob };
      },
    );
    return { contents };
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

  private registerHandlers(): void {
    const { server } = this;
    const { registry } = this.host;

    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.logLevel = request.params.level;
      return {};
    });

    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const page = this.page(
        Array.from(registry.tools.values(), (tool) => tool.listing),
        request.params?.cursor,
      );
      return { tools: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const registered = registry.tools.get(request.params.name);
      if (!registered) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      return this.callTool(registered, request.params.arguments, extra);
    });

    server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
      const context = this.requestContext(extra, this.signalFor(extra));
      const listed: ResourceListing[] = Array.from(registry.resources.values(), (resource) => resource.listing);
      for (const template of registry.templates.values()) {
        if (template.definition.list) listed.push(...(await template.definition.list(context)));
      }
      const page = this.page(listed, request.params?.cursor);
      return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
      const page = this.page(
        Array.from(registry.templates.values(), (template) => template.listing),
        request.params?.cursor,
      );
      return { resourceTemplates: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      this.readResource(request.params.uri, extra),
    );

    server.setRequestHandler(SubscribeRequestSchema, (request) => {
      this.subscriptions.add(request.params.uri);
      return {};
    });

    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      this.subscriptions.delete(request.params.uri);
      return {};
    });

    server.setRequestHandler(ListPromptsRequestSchema, (request) => {
      const page = this.page(
        Array.from(registry.prompts.values(), (prompt) => prompt.listing),
        request.params?.cursor,
      );
      return { prompts: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    server.setRequestHandler(GetPromptRequestSchema, async (request, extra): Promise<GetPromptResult> => {
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

    server.setRequestHandler(CompleteRequestSchema, async (request) => {
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
