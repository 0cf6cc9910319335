import {
  type CallToolRequest,
  type CallToolRequestOptions,
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type ListPromptsRequest,
  type ListPromptsResult,
  type ListResourcesRequest,
  type ListResourcesResult,
  type ListResourceTemplatesRequest,
  type ListResourceTemplatesResult,
  type ListToolsRequest,
  type ListToolsResult,
  type RequestOptions,
  type Root,
  type ServerNotification,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio as serveBothEras } from '@modelcontextprotocol/server/stdio';
import type { KitServer } from '../create-server.js';

/** The protocol revisions a test client can speak: the 2025 handshake era or the stateless 2026 era. */
export type ProtocolEraUnderTest = '2025-11-25' | '2026-07-28';

/** Both eras, oldest first, for running one suite once per era. */
export const protocolEras: readonly ProtocolEraUnderTest[] = ['2025-11-25', '2026-07-28'];

/** A tool result whose structured content reads as an object, as tests read it. */
export type TestToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

/**
 * The SDK client of the test harness, behaving as the 1.x client the suites were written against: `callTool` also
 * takes the form `(params, resultSchema, options)` (the schema is ignored), a list without a cursor is one page (not
 * every page gathered), so that a test sees paging as a client does. A JSON-RPC error rejects as the 2.x client's
 * `ProtocolError` (its `code` and the server's message).
 */
export class TestSdkClient extends Client {
  override callTool(params: CallToolRequest['params'], options?: CallToolRequestOptions): Promise<TestToolResult>;
  override callTool(
    params: CallToolRequest['params'],
    resultSchema: unknown,
    options?: CallToolRequestOptions,
  ): Promise<TestToolResult>;
  override async callTool(
    params: CallToolRequest['params'],
    second?: unknown,
    third?: CallToolRequestOptions,
  ): Promise<TestToolResult> {
    const options = third ?? (isResultSchema(second) ? undefined : (second as CallToolRequestOptions | undefined));
    return (await super.callTool(params, options)) as TestToolResult;
  }

  override listTools(params: ListToolsRequest['params'] = {}, options?: RequestOptions): Promise<ListToolsResult> {
    return this.request({ method: 'tools/list', params }, options);
  }

  override listPrompts(
    params: ListPromptsRequest['params'] = {},
    options?: RequestOptions,
  ): Promise<ListPromptsResult> {
    return this.request({ method: 'prompts/list', params }, options);
  }

  override listResources(
    params: ListResourcesRequest['params'] = {},
    options?: RequestOptions,
  ): Promise<ListResourcesResult> {
    return this.request({ method: 'resources/list', params }, options);
  }

  override listResourceTemplates(
    params: ListResourceTemplatesRequest['params'] = {},
    options?: RequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.request({ method: 'resources/templates/list', params }, options);
  }
}

function isResultSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ('~standard' in value || 'parse' in value);
}

/** How the test client behaves as a client: what it answers to sampling, elicitation and roots requests. */
export interface TestClientOptions {
  /** Answers sampling requests; without it the client does not declare sampling. */
  onSample?(params: CreateMessageRequest['params']): CreateMessageResult | Promise<CreateMessageResult>;
  /** Answers elicitation requests; without it the client does not declare elicitation. */
  onElicit?(params: ElicitRequest['params']): ElicitResult | Promise<ElicitResult>;
  /** The client's roots; without them the client does not declare roots. */
  roots?: Root[];
  /** The protocol revision the client speaks (default 2025-11-25); the other is never tried. */
  era?: ProtocolEraUnderTest;
}

/** A real SDK client connected to a server, with shortcuts for tests. Dispose it with `await using`. */
export interface TestClient extends AsyncDisposable {
  readonly client: TestSdkClient;
  /** The protocol revision this client speaks. */
  readonly era: ProtocolEraUnderTest;
  /** Every notification the server sent, in order. */
  readonly notifications: ServerNotification[];
  /** Calls a tool and returns its result (an `isError` result is returned, not thrown). */
  callTool(name: string, args?: Record<string, unknown>): Promise<TestToolResult>;
  /** Calls a tool and returns the text of its result. */
  callToolText(name: string, args?: Record<string, unknown>): Promise<string>;
  /** Replaces the client's roots and notifies the server (2025-11-25; a 2026-07-28 server asks in each request). */
  setRoots(roots: Root[]): Promise<void>;
  close(): Promise<void>;
}

/** The text blocks of a result, joined by newlines. */
export function resultText(result: Pick<CallToolResult, 'content'>): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

async function connectClient(transport: Transport, options: TestClientOptions, onClose?: () => Promise<void>) {
  let roots = options.roots;
  const capabilities: ClientCapabilities = {};
  if (options.onSample) capabilities.sampling = {};
  if (options.onElicit) capabilities.elicitation = { form: {} };
  if (roots) capabilities.roots = { listChanged: true };

  const era = options.era ?? '2025-11-25';
  const client = new TestSdkClient(
    { name: 'mcpkit-test-client', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: era === '2025-11-25' ? 'legacy' : { pin: era } } },
  );
  const notifications: ServerNotification[] = [];
  client.fallbackNotificationHandler = async (notification) => {
    notifications.push(notification as ServerNotification);
  };
  if (options.onSample) {
    const onSample = options.onSample;
    client.setRequestHandler('sampling/createMessage', (request) => onSample(request.params));
  }
  if (options.onElicit) {
    const onElicit = options.onElicit;
    client.setRequestHandler('elicitation/create', (request) => onElicit(request.params));
  }
  if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots ?? [] }));
  await client.connect(transport);

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await client.close();
    await onClose?.();
  };
  const callTool = async (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args });
  const testClient: TestClient = {
    client,
    era,
    notifications,
    callTool,
    callToolText: async (name, args) => resultText(await callTool(name, args)),
    setRoots: async (next) => {
      roots = next;
      // The 2026-07-28 revision has no roots notification: its server asks for the roots in each request that needs them.
      if (era === '2025-11-25') await client.sendRootsListChanged();
    },
    close,
    [Symbol.asyncDispose]: close,
  };
  return testClient;
}

/**
 * Connects a real SDK client to `server` in memory, in the era of `options.era`: a 2025-11-25 client gets a session
 * of its own, a 2026-07-28 client is served as on stdio (the SDK's both-era entry, one linked pair of one package).
 */
export async function connectTestClient(server: KitServer, options: TestClientOptions = {}): Promise<TestClient> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  if ((options.era ?? '2025-11-25') === '2025-11-25') {
    await server.connect(serverTransport);
    return connectClient(clientTransport, options);
  }
  const connection = serveBothEras((context) => server.factory(context), { transport: serverTransport });
  return connectClient(clientTransport, options, async () => {
    await connection.close();
  });
}

/** How to start a server as a child process. */
export interface SpawnOptions {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** A test client over a real stdio child process; `stderr` collects what the server logged. */
export interface SpawnedTestClient extends TestClient {
  stderr(): string;
  readonly pid: number | null;
}

/** Starts a server as a child process and connects a real SDK client over its stdio. */
export async function spawnTestClient(
  spawn: SpawnOptions,
  options: TestClientOptions = {},
): Promise<SpawnedTestClient> {
  const transport = new StdioClientTransport({
    command: spawn.command,
    args: spawn.args ?? [],
    env: { ...(process.env as Record<string, string>), ...spawn.env },
    ...(spawn.cwd ? { cwd: spawn.cwd } : {}),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const testClient = await connectClient(transport, options);
  return Object.assign(testClient, { stderr: () => stderr, pid: transport.pid });
}

/** One way of reaching the server under test, for running the same suite over each. */
export interface TransportUnderTest {
  /** `in memory` or `stdio`, for test names. */
  name: 'in memory' | 'stdio';
  /** The protocol revision its clients speak unless a test asks for the other. */
  era: ProtocolEraUnderTest;
  /** Connects a fresh client to a fresh server (a new server object, or a new child process). */
  connect(options?: TestClientOptions): Promise<TestClient>;
}

/** The server under test: how to build it in memory and how to start its built bin. */
export interface ServerUnderTest {
  /** Builds the server for an in-memory connection. */
  create(): KitServer;
  /** Starts the built server as a child process. */
  spawn: SpawnOptions;
}

/**
 * The two ways to reach a server in tests, to run one suite over both (e.g. with vitest's `describe.each`): in memory,
 * fast and with the server object at hand, and over the real stdio of its built bin, as clients run it. Their clients
 * speak `era` (default 2025-11-25).
 */
export function transportsUnderTest(
  server: ServerUnderTest,
  era: ProtocolEraUnderTest = '2025-11-25',
): TransportUnderTest[] {
  return [
    { name: 'in memory', era, connect: (options) => connectTestClient(server.create(), { era, ...options }) },
    { name: 'stdio', era, connect: (options) => spawnTestClient(server.spawn, { era, ...options }) },
  ];
}

/** Every transport in every era (`in memory` and `stdio`, each in 2025-11-25 and 2026-07-28), for `describe.each`. */
export function erasUnderTest(server: ServerUnderTest): TransportUnderTest[] {
  return protocolEras.flatMap((era) => transportsUnderTest(server, era));
}
