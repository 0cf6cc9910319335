import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/server-config.js';
import { errorMessage, HostError } from '../errors.js';
import { callFailureResult, connectionDropped, errorResult } from './call-failure.js';
import type { ClientRequestHandlers, RootEntry } from './client-requests.js';
import { type ConnectedClient, connectClient } from './connected-client.js';
import { sessionLost } from './http-session.js';
import type { ConnectionAuthorization } from './oauth/connection-authorization.js';
import { OpenQuestions } from './open-questions.js';
import { type RestartPolicy, restartDelay, restartPolicy } from './restart-policy.js';
import { listEverything, type ServerLists } from './server-lists.js';
import { type CallOptions, callWithinLimits } from './tool-call.js';
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
  // The questions to the user that are open: while one is, no call of this server times out for silence.
  private readonly questions = new OpenQuestions();
  // The handlers of server requests, counting the questions they put to the user.
  private readonly handlers: ClientRequestHandlers;

  constructor(
    readonly config: ServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    this.name = config.name;
    this.restartPolicy = restartPolicy(options.restart);
    this.handlers = this.questions.counting(options.handlers);
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
    const { maxAttempts } = this.restartPolicy;
    if (attempt >= maxAttempts) {
      this.lastError = `the server stopped and did not come back after ${maxAttempts} restarts`;
      this.options.log(this.name, this.lastError);
      this.setState('failed');
      return;
    }
    this.restartTimer = setTimeout(
      async () => {
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
      },
      restartDelay(this.restartPolicy, attempt),
    );
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
    const timeoutMs = options.timeoutMs ?? this.config.callTimeoutMs;
    const call = { server: this.name, tool, arguments: args };
    try {
      return await callWithinLimits(connected.client, call, options, { timeoutMs, questions: this.questions });
    } catch (error) {
      const transport = this.config.transport.kind;
      if (mayRenew && (await sessionLost(connected, transport, error)) && (await this.renewSession(connected))) {
        return this.callOnce(tool, args, options, false);
      }
      // A modern-era request carries everything it needs, so one sent on a socket the server had closed (it
      // restarted) is sent once more on a new connection.
      if (mayRenew && connected.protocol.era === 'modern' && connectionDropped(error)) {
        this.options.log(this.name, 'the connection to the server dropped; sending the call again');
        return this.callOnce(tool, args, options, false);
      }
      return callFailureResult(error, { server: this.name, tool, timeoutMs });
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
