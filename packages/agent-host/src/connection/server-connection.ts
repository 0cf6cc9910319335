import {
  type PriorDiscovery,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/server-config.js';
import { errorMessage, HostError } from '../errors.js';
import type { ClientRequestHandlers, RootEntry } from './client-requests.js';
import {
  type ConnectedClient,
  type ConnectionAuthorization,
  connectClient,
  signInRequired,
} from './connected-client.js';
import { listEverything, type ServerLists } from './server-lists.js';
import { SilenceTimer } from './silence-timer.js';
import { toolAllowed } from './tool-filter.js';
import type {
  CallToolResult,
  GetPromptResult,
  NegotiatedProtocol,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerLogSink,
  Tool,
} from './types.js';

/** Where a connection is in its life. */
export type ConnectionState = 'idle' | 'connecting' | 'ready' | 'restarting' | 'failed' | 'closed';

/** How a crashed stdio server is restarted. */
export interface RestartPolicy {
  /** Attempts after one crash before giving up (default 5). */
  maxAttempts: number;
  /** Delay before the first attempt; doubles each time (default 500 ms). */
  initialDelayMs: number;
  /** Longest delay between attempts (default 30 s). */
  maxDelayMs: number;
}

/** What a connection needs besides its server's config. */
export interface ConnectionOptions {
  /** Where the server's stderr lines and the host's notes about the server go. */
  log: ServerLogSink;
  /** Answers roots, sampling and elicitation requests from the server. */
  handlers: ClientRequestHandlers;
  /** The host's name and version sent at initialization. */
  clientInfo?: { name: string; version: string };
  /** Replaces the global fetch of HTTP transports (a proxy agent, or a test that stands in for part of a server). */
  fetch?: typeof fetch;
  restart?: Partial<RestartPolicy>;
  /** How an HTTP server protected by OAuth is signed in to (default: saved tokens only, from the user's token file). */
  authorization?: ConnectionAuthorization;
  /** Called when the state or the lists of tools, prompts or resources change; read them from the connection. */
  onChange?(connection: ServerConnection): void;
}

/** A progress notification of a tool call. */
export interface ToolProgress {
  /** How much is done; grows with each notification. */
  progress: number;
  /** How much there is in all, when the server knows. */
  total?: number;
  message?: string;
}

/** Options of one tool call. */
export interface CallOptions {
  /** Aborting sends `notifications/cancelled` to the server and ends the call with an error result. */
  signal?: AbortSignal;
  /**
   * Overrides the server's configured call timeout: the longest silence, since each progress notification resets it
   * (and the time a person takes to answer the server's form or sampling request does not count).
   */
  timeoutMs?: number;
  /** The longest a call may take however much progress it reports (default 10 times the timeout). */
  maxTotalTimeoutMs?: number;
  /** Receives the call's progress notifications (every call asks for them with a progress token). */
  onProgress?(progress: ToolProgress): void;
}

/** How many call timeouts a call that keeps reporting progress may last in all, by default. */
export const defaultTotalTimeoutFactor = 10;

/** An error result the model can read, for a call that never got a real one. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Whether a call failed because the tool runs only as a task (the tasks extension): the server says it "requires
 * task-based execution" (-32600) or "requires task augmentation" (the SDK's servers, -32601), or the SDK client
 * refuses to send the call for a tool listed with `execution.taskSupport: "required"`.
 */
function needsTasks(error: unknown): boolean {
  return (
    ((error instanceof ProtocolError &&
      (error.code === ProtocolErrorCode.InvalidRequest || error.code === ProtocolErrorCode.MethodNotFound)) ||
      error instanceof SdkError) &&
    /requires task[- ](based execution|augmentation)/.test(error.message)
  );
}

// Socket failures of a request sent on a connection the server had already closed (a kept-alive socket to a server
// that restarted) or could not open: the request never reached a running server.
const droppedConnectionCodes = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE']);

/** Whether a request failed because its HTTP connection was gone, not because the server answered. */
function connectionDropped(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' && droppedConnectionCodes.has(cause.code);
}

/** What a server said about itself at initialization. */
export interface ServerInfo {
  name: string;
  version: string;
  instructions?: string;
}

// What a failed or closed connection lists; frozen, since every such connection hands out the same one.
const none: readonly never[] = Object.freeze([]);

/**
 * One server: starts it (a process group or an HTTP connection), initializes, keeps its tools, prompts and resources
 * current on `list_changed`, restarts a crashed stdio server with backoff, and turns every failure of a tool call
 * (timeout, crash, cancel) into an error result so that each call gets exactly one answer. Its state is read-only
 * from outside: it changes only through the connection's own life, and `onChange` tells the owner when it did.
 */
export class ServerConnection {
  readonly name: string;
  private currentState: ConnectionState = 'idle';
  private lastError: string | undefined;
  private lists: ServerLists = { tools: [], prompts: [], resources: [], resourceTemplates: [] };
  private info: ServerInfo | undefined;
  private negotiated: NegotiatedProtocol | undefined;
  // A legacy era found at the first connect, reused by restarts and new sessions (no second probe, and a server
  // that exits on the probe is started once, not twice, each time).
  private prior: PriorDiscovery | undefined;
  private restartCount = 0;
  private connected: ConnectedClient | undefined;
  private closing = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> = Promise.resolve();
  private renewing: Promise<boolean> | undefined;
  private readonly restartPolicy: RestartPolicy;
  // The handlers of server requests, counting the questions to the user that are open; while one is, no call of this
  // server times out for silence, and answering one starts every call's wait again.
  private readonly handlers: ClientRequestHandlers;
  private openQuestions = 0;
  private readonly silenceTimers = new Set<SilenceTimer>();

  constructor(
    readonly config: ServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    this.name = config.name;
    this.restartPolicy = { maxAttempts: 5, initialDelayMs: 500, maxDelayMs: 30_000, ...options.restart };
    this.handlers = this.countingQuestions(options.handlers);
  }

  private countingQuestions(handlers: ClientRequestHandlers): ClientRequestHandlers {
    const asking = async <T>(question: () => Promise<T>): Promise<T> => {
      this.openQuestions += 1;
      try {
        return await question();
      } finally {
        this.openQuestions -= 1;
        for (const timer of this.silenceTimers) timer.reset();
      }
    };
    const { sample, elicit } = handlers;
    return {
      ...handlers,
      ...(sample ? { sample: (request) => asking(() => sample(request)) } : {}),
      ...(elicit ? { elicit: (request) => asking(() => elicit(request)) } : {}),
    };
  }

  /** Where the connection is in its life. */
  get state(): ConnectionState {
    return this.currentState;
  }

  /** Why the server is not ready, when it is not. */
  get error(): string | undefined {
    return this.lastError;
  }

  /** Whether the lists are shown: a failed or closed connection lists nothing; a restarting one keeps its names. */
  private get listing(): boolean {
    return this.currentState !== 'failed' && this.currentState !== 'closed';
  }

  /** The tools the config lets the model see; none while the connection is failed or closed. */
  get tools(): readonly Tool[] {
    return this.listing ? this.lists.tools : none;
  }

  /** The server's prompts; none while the connection is failed or closed. */
  get prompts(): readonly Prompt[] {
    return this.listing ? this.lists.prompts : none;
  }

  /** The server's resources; none while the connection is failed or closed. */
  get resources(): readonly Resource[] {
    return this.listing ? this.lists.resources : none;
  }

  /** The server's resource templates (RFC 6570 URIs read with values filled in); none while failed or closed. */
  get resourceTemplates(): readonly ResourceTemplate[] {
    return this.listing ? this.lists.resourceTemplates : none;
  }

  /** What the server said about itself at its latest initialization. */
  get serverInfo(): Readonly<ServerInfo> | undefined {
    return this.info;
  }

  /** The protocol negotiated at the latest connect: its era, revision and transport. */
  get protocol(): Readonly<NegotiatedProtocol> | undefined {
    return this.negotiated;
  }

  /** The roots offered to the server (none when the user gave none). */
  get roots(): readonly RootEntry[] {
    return this.options.handlers.roots?.() ?? none;
  }

  /** How many times the server was restarted after a crash. */
  get restarts(): number {
    return this.restartCount;
  }

  /** Starts and initializes the server and lists what it offers; throws a HostError when it cannot. */
  async start(): Promise<void> {
    this.setState('connecting');
    try {
      await this.open();
    } catch (error) {
      this.lastError = errorMessage(error);
      this.setState('failed');
      // A server that needs a sign-in keeps that code, so that a program can offer one.
      const code =
        HostError.isInstance(error) && error.code === 'SIGN_IN_REQUIRED' ? error.code : 'SERVER_START_FAILED';
      throw new HostError(code, `Server "${this.name}" did not start: ${this.lastError}`, { cause: error });
    }
  }

  private setState(state: ConnectionState): void {
    if (this.currentState === 'closed') return; // a start or restart that finishes after close() changes nothing
    this.currentState = state;
    if (state === 'ready') this.lastError = undefined;
    this.options.onChange?.(this);
  }

  private async open(): Promise<void> {
    const connected = await connectClient(this.config, {
      log: this.options.log,
      handlers: this.handlers,
      ...(this.options.clientInfo ? { clientInfo: this.options.clientInfo } : {}),
      ...(this.prior ? { prior: this.prior } : {}),
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.authorization ? { authorization: this.options.authorization } : {}),
      onListChanged: () => this.refresh(),
    });
    if (this.closing) {
      // close() ran while this start or restart was on its way: end what it started instead of keeping it.
      await connected.client.close().catch(() => {});
      throw new Error(`${this.name} was closed while it was starting.`);
    }
    this.connected = connected;
    this.negotiated = connected.protocol;
    // Only a legacy verdict is kept: a modern one would connect with no round trip at all, and a restarted server
    // must show it is up before it counts as started.
    if (connected.protocol.era === 'legacy') this.prior = { kind: 'legacy' };
    const { protocol } = connected;
    this.options.log(this.name, `connected: protocol ${protocol.version} (${protocol.era}) over ${protocol.transport}`);
    connected.client.onclose = () => this.onClosed(connected);
    const version = connected.client.getServerVersion();
    const instructions = connected.client.getInstructions();
    this.info = {
      name: version?.name ?? this.name,
      version: version?.version ?? '',
      ...(instructions ? { instructions } : {}),
    };
    try {
      this.applyLists(await listEverything(connected, this.config.startupTimeoutMs));
    } catch (error) {
      // A server that initializes but cannot list is not usable; end it rather than leave its process behind.
      this.connected = undefined;
      await connected.client.close().catch(() => {});
      throw error;
    }
    if (this.closing) {
      this.connected = undefined;
      await connected.client.close().catch(() => {});
      throw new Error(`${this.name} was closed while it was starting.`);
    }
    this.setState('ready');
  }

  private applyLists(lists: ServerLists): void {
    this.lists = {
      tools: lists.tools.filter((tool) => toolAllowed(this.config.tools, tool.name)),
      prompts: lists.prompts,
      resources: lists.resources,
      resourceTemplates: lists.resourceTemplates,
    };
  }

  /** Lists everything again (on `list_changed`) and tells the host; refreshes run one after another. */
  refresh(): Promise<void> {
    // Serialized so that a slow older listing cannot land after a newer one.
    this.refreshing = this.refreshing.then(() => this.relist());
    return this.refreshing;
  }

  private async relist(): Promise<void> {
    const connected = this.connected;
    if (!connected || this.state !== 'ready') return;
    try {
      this.applyLists(await listEverything(connected, this.config.startupTimeoutMs));
      this.options.onChange?.(this);
    } catch (error) {
      this.options.log(this.name, `could not refresh its lists: ${errorMessage(error)}`);
    }
  }

  private onClosed(connected: ConnectedClient): void {
    if (this.connected !== connected) return;
    this.connected = undefined;
    if (this.closing) return;
    const restartable = this.config.transport.kind === 'stdio';
    this.lastError = 'the server stopped';
    this.options.log(this.name, restartable ? 'stopped unexpectedly; restarting' : 'connection closed');
    if (!restartable) {
      this.setState('failed');
      return;
    }
    this.setState('restarting');
    this.scheduleRestart(0);
  }

  private scheduleRestart(attempt: number): void {
    const { maxAttempts, initialDelayMs, maxDelayMs } = this.restartPolicy;
    if (attempt >= maxAttempts) {
      this.lastError = `the server stopped and did not come back after ${maxAttempts} restarts`;
      this.options.log(this.name, this.lastError);
      this.setState('failed');
      return;
    }
    const delay = Math.min(initialDelayMs * 2 ** attempt, maxDelayMs);
    this.restartTimer = setTimeout(async () => {
      this.restartTimer = undefined;
      if (this.closing) return;
      try {
        await this.open();
        this.restartCount += 1;
        this.options.log(this.name, 'restarted');
      } catch (error) {
        this.options.log(this.name, `restart failed: ${errorMessage(error)}`);
        if (!this.closing) this.scheduleRestart(attempt + 1);
      }
    }, delay);
    this.restartTimer.unref();
  }

  private unavailable(): string {
    if (this.state === 'restarting') return `Server "${this.name}" crashed and is restarting; try again shortly.`;
    return `Server "${this.name}" is not available${this.lastError ? ` (${this.lastError})` : ''}.`;
  }

  /** Calls a tool; always resolves, with the tool's own result or an error result saying what went wrong. */
  callTool(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    return this.callOnce(tool, args, options, true);
  }

  /**
   * An HTTP server that restarted has forgotten our session and answers 404; the spec's remedy is a new session, so
   * the host initializes again and repeats the call once.
   */
  private async renewSession(lost: ConnectedClient): Promise<boolean> {
    this.renewing ??= (async () => {
      if (this.connected !== lost) return this.state === 'ready';
      this.connected = undefined;
      await lost.client.close().catch(() => {});
      this.options.log(this.name, 'the server forgot the session; starting a new one');
      try {
        await this.open();
        return true;
      } catch (error) {
        this.lastError = `could not start a new session: ${errorMessage(error)}`;
        this.setState('failed');
        return false;
      }
    })().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  /**
   * Whether an HTTP server no longer knows the session: it answered 404, or the connection broke (a restarted server
   * closes the old sockets) and a ping now gets 404. A server that still knows the session keeps it, and the failed
   * call is not repeated, since it may have run.
   */
  private async sessionLost(connected: ConnectedClient, error: unknown): Promise<boolean> {
    // The modern era has no session to lose: a restarted server simply answers the next request.
    if (this.config.transport.kind !== 'http' || connected.protocol.era === 'modern') return false;
    if (error instanceof ProtocolError) return false;
    if (error instanceof SdkHttpError) return error.status === 404;
    try {
      await connected.client.ping({ timeout: 5000 });
      return false;
    } catch (pingError) {
      return pingError instanceof SdkHttpError && pingError.status === 404;
    }
  }

  private async callOnce(
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
    mayRenew: boolean,
  ): Promise<CallToolResult> {
    const connected = this.connected;
    if (!connected || this.state !== 'ready') return errorResult(this.unavailable());
    if (!toolAllowed(this.config.tools, tool)) {
      return errorResult(`Tool "${tool}" of server "${this.name}" is not allowed by the host's config.`);
    }
    if (options.signal?.aborted) return errorResult(`The call to tool "${tool}" was cancelled.`);
    const timeout = options.timeoutMs ?? this.config.callTimeoutMs;
    const totalTimeout = options.maxTotalTimeoutMs ?? timeout * defaultTotalTimeoutFactor;
    // Both limits abort the call's own signal, so that reaching one also tells the server to stop (the SDK's
    // maxTotalTimeout is checked only when progress arrives, and does not send notifications/cancelled). The
    // silence limit is the host's own rather than the SDK's request timeout, so that the time a person takes to
    // answer the server's question (a form, a sampling request) never counts. The caller's signal aborts it too.
    const stop = new AbortController();
    let limit: 'silence' | 'total' | undefined;
    const totalTimer = setTimeout(() => {
      limit ??= 'total';
      stop.abort();
    }, totalTimeout);
    const silence = new SilenceTimer(
      timeout,
      () => {
        limit ??= 'silence';
        stop.abort();
      },
      () => this.openQuestions > 0,
    );
    this.silenceTimers.add(silence);
    const abortCall = () => stop.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', abortCall, { once: true });
    const onProgress = options.onProgress;
    try {
      const result = await connected.client.callTool(
        { name: tool, arguments: args },
        {
          // Past both of the host's limits: the SDK's own timeout never decides.
          timeout: totalTimeout + 1000,
          signal: stop.signal,
          // Given always, so that every call carries a progress token.
          onprogress: (progress) => {
            silence.reset();
            onProgress?.({
              progress: progress.progress,
              ...(progress.total !== undefined ? { total: progress.total } : {}),
              ...(progress.message !== undefined ? { message: progress.message } : {}),
            });
          },
        },
      );
      return result as CallToolResult;
    } catch (error) {
      if (options.signal?.aborted) return errorResult(`The call to tool "${tool}" was cancelled.`);
      if (limit === 'silence') {
        return errorResult(`Tool "${tool}" of server "${this.name}" did not answer within ${timeout} ms.`);
      }
      if (limit === 'total') {
        return errorResult(
          `Tool "${tool}" of server "${this.name}" did not finish within ${totalTimeout} ms in all, though it reported progress.`,
        );
      }
      if (mayRenew && (await this.sessionLost(connected, error)) && (await this.renewSession(connected))) {
        return this.callOnce(tool, args, options, false);
      }
      // A modern-era request carries everything it needs, so one sent on a socket the server had closed (it
      // restarted) is sent once more on a new connection.
      if (mayRenew && connected.protocol.era === 'modern' && connectionDropped(error)) {
        this.options.log(this.name, 'the connection to the server dropped; sending the call again');
        return this.callOnce(tool, args, options, false);
      }
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
        return errorResult(`Tool "${tool}" of server "${this.name}" did not answer within ${timeout} ms.`);
      }
      if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
        return errorResult(`Server "${this.name}" stopped during the call to tool "${tool}".`);
      }
      const signIn = signInRequired(error);
      if (signIn) {
        return errorResult(
          `Tool "${tool}" of server "${this.name}" was not called: ${signIn.message} (mcpkit-host auth login ${this.name}).`,
        );
      }
      if (needsTasks(error)) {
        return errorResult(
          `Tool "${tool}" of server "${this.name}" needs the tasks extension, which mcpkit-host does not support yet.`,
        );
      }
      return errorResult(`Tool "${tool}" of server "${this.name}" failed: ${errorMessage(error)}`);
    } finally {
      clearTimeout(totalTimer);
      silence.clear();
      this.silenceTimers.delete(silence);
      options.signal?.removeEventListener('abort', abortCall);
    }
  }

  private ready(): ConnectedClient {
    if (!this.connected || this.state !== 'ready') throw new HostError('SERVER_UNAVAILABLE', this.unavailable());
    return this.connected;
  }

  /** Gets a prompt with its arguments filled in. */
  getPrompt(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return this.ready().client.getPrompt({ name, arguments: args }, { timeout: this.config.callTimeoutMs });
  }

  /** Reads a resource by URI. */
  readResource(uri: string): Promise<ReadResourceResult> {
    return this.ready().client.readResource({ uri }, { timeout: this.config.callTimeoutMs });
  }

  /** Tells the server the roots changed. */
  async notifyRootsChanged(): Promise<void> {
    await this.connected?.client.sendRootsListChanged().catch(() => {});
  }

  /** Ends the connection and, for a stdio server, its whole process group. Safe to call twice. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const connected = this.connected;
    this.connected = undefined;
    if (connected) await connected.client.close().catch(() => {});
    this.currentState = 'closed';
  }
}
