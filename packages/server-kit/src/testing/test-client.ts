import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
  type Root,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { KitServer } from '../create-server.js';

/** How the test client behaves as a client: what it answers to sampling, elicitation and roots requests. */
export interface TestClientOptions {
  /** Answers sampling requests; without it the client does not declare sampling. */
  onSample?(params: CreateMessageRequest['params']): CreateMessageResult | Promise<CreateMessageResult>;
  /** Answers elicitation requests; without it the client does not declare elicitation. */
  onElicit?(params: ElicitRequest['params']): ElicitResult | Promise<ElicitResult>;
  /** The client's roots; without them the client does not declare roots. */
  roots?: Root[];
}

/** A real SDK client connected to a server, with shortcuts for tests. Dispose it with `await using`. */
export interface TestClient extends AsyncDisposable {
  readonly client: Client;
  /** Every notification the server sent, in order. */
  readonly notifications: ServerNotification[];
  /** Calls a tool and returns its result (an `isError` result is returned, not thrown). */
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Calls a tool and returns the text of its result. */
  callToolText(name: string, args?: Record<string, unknown>): Promise<string>;
  /** Replaces the client's roots and notifies the server. */
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

  const client = new Client({ name: 'mcpkit-test-client', version: '1.0.0' }, { capabilities });
  const notifications: ServerNotification[] = [];
  client.fallbackNotificationHandler = async (notification) => {
    notifications.push(notification as ServerNotification);
  };
  if (options.onSample) {
    const onSample = options.onSample;
    client.setRequestHandler(CreateMessageRequestSchema, (request) => onSample(request.params));
  }
  if (options.onElicit) {
    const onElicit = options.onElicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => onElicit(request.params));
  }
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots ?? [] }));
  await client.connect(transport);

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await client.close();
    await onClose?.();
  };
  const callTool = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const testClient: TestClient = {
    client,
    notifications,
    callTool,
    callToolText: async (name, args) => resultText(await callTool(name, args)),
    setRoots: async (next) => {
      roots = next;
      await client.sendRootsListChanged();
    },
    close,
    [Symbol.asyncDispose]: close,
  };
  return testClient;
}

/** Connects a real SDK client to `server` in memory. */
export async function connectTestClient(server: KitServer, options: TestClientOptions = {}): Promise<TestClient> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  return connectClient(clientTransport, options);
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
  /** Connects a fresh client to a fresh server (a new server object, or a new child process). */
  connect(options?: TestClientOptions): Promise<TestClient>;
}

/**
 * The two ways to reach a server in tests, to run one suite over both (e.g. with vitest's `describe.each`): in memory,
 * fast and with the server object at hand, and over the real stdio of its built bin, as clients run it.
 */
export function transportsUnderTest(server: {
  /** Builds the server for an in-memory connection. */
  create(): KitServer;
  /** Starts the built server as a child process. */
  spawn: SpawnOptions;
}): TransportUnderTest[] {
  return [
    { name: 'in memory', connect: (options) => connectTestClient(server.create(), options) },
    { name: 'stdio', connect: (options) => spawnTestClient(server.spawn, options) },
  ];
}
