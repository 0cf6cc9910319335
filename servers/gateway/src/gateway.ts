import {
  connectHost,
  type ElicitationAnswer,
  type ElicitationRequest,
  type Host,
  type HostConfig,
  type RestartPolicy,
  type SamplingRequest,
  type ServerLogSink,
} from '@mcpkit/agent-host';
import {
  type AnyPrompt,
  type AnyTool,
  createServer,
  type KitServer,
  type Middleware,
  type ResourceDefinition,
} from '@mcpkit/server-kit';
import { z } from 'zod';
import { backendPrompt } from './backend-prompt.js';
import { backendResource, backendTemplate } from './backend-resources.js';
import { backendTool } from './backend-tool.js';
import { OpenCalls } from './open-calls.js';
import { ResourceAddresses } from './resource-address.js';

/** How a gateway is built. */
export interface GatewayOptions {
  /** The servers behind the gateway: a host config (Claude Desktop, Cursor or VS Code format, parsed). */
  config: HostConfig;
  /** The gateway's name and version, sent to its clients (default `mcpkit-gateway`). */
  name?: string;
  version?: string;
  /** Middleware in front of every backend: rate limits, audit, access rules (the kit's `createServer({ middleware })`). */
  middleware?: readonly Middleware[];
  /** How backends that die are restarted (the host library's policy: 5 attempts, from 0.5 s doubling). */
  restart?: Partial<RestartPolicy>;
  /** Where backends' stderr lines go (default: the gateway's stderr, prefixed with the server's name). */
  log?: ServerLogSink;
  /** Character budget of each result as the gateway passes it on (default 1,000,000: backends hold their own). */
  budget?: number;
}

/** A running gateway: the kit server to serve, and the host that holds the backends. */
export interface Gateway {
  readonly server: KitServer;
  readonly host: Host;
  /** Closes the server and ends every backend. */
  close(): Promise<void>;
}

/** The gateway's name for a backend's prompt: `server__prompt`, like the host's tool names. */
function promptName(server: string, prompt: string): string {
  return `${server}__${prompt}`.replace(/[\s\p{Cc}]/gu, '_').slice(0, 128);
}

/**
 * Starts every server of `config` (through the host library) and builds one kit server offering all of their tools,
 * resources and prompts under gateway names, kept in step with the backends as their lists change.
 */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const open = new OpenCalls();
  const addresses = new ResourceAddresses();

  // A backend's question goes to the client whose call is in flight to that backend; without one it is declined.
  const elicit = async (request: ElicitationRequest): Promise<ElicitationAnswer> => {
    const context = open.newest(request.server);
    if (!context?.client.supports('elicitation')) return { action: 'decline' };
    const schema = z.fromJSONSchema({ type: 'object', ...request.schema }) as z.ZodObject;
    return (await context.elicit(request.message, schema)) as ElicitationAnswer;
  };
  const sample = async (request: SamplingRequest): Promise<{ text: string; model: string }> => {
    const context = open.newest(request.server);
    if (!context) throw new Error(`The gateway has no client call to server "${request.server}" to ask.`);
    const result = await context.sample({
      messages: request.messages.map((message) => ({
        role: message.role,
        content: { type: 'text', text: message.text },
      })),
      maxTokens: request.maxTokens,
      ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
    });
    const blocks = Array.isArray(result.content) ? result.content : [result.content];
    const text = blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
    return { text, model: result.model };
  };

  const host = await connectHost(options.config, {
    elicit,
    sample,
    ...(options.log ? { log: options.log } : {}),
    ...(options.restart ? { restart: options.restart } : {}),
    clientInfo: { name: options.name ?? 'mcpkit-gateway', version: options.version ?? '0.1.0' },
  });
  const backends: Host = host;

  const callBackend = (
    server: string,
    tool: string,
    args: Record<string, unknown>,
    callOptions: Parameters<Host['call']>[3],
  ) => backends.call(server, tool, args, callOptions);
  const readBackend = (server: string, uri: string) => backends.readResource(uri, server);
  const getPrompt = async (server: string, name: string, args: Record<string, string>) => {
    const connection = backends.connection(server);
    if (!connection) throw new Error(`There is no server "${server}".`);
    return connection.getPrompt(name, args);
  };

  /** What the backends offer now, under gateway names, each with a signature that changes when its listing does. */
  const current = () => {
    const tools = new Map<string, { signature: string; build(): AnyTool }>();
    for (const entry of backends.registry.list()) {
      tools.set(entry.modelName, {
        signature: JSON.stringify(entry.definition),
        build: () => backendTool(entry, callBackend, open),
      });
    }
    const resources = new Map<string, { signature: string; build(): ResourceDefinition }>();
    const prompts = new Map<string, { signature: string; build(): AnyPrompt }>();
    for (const connection of backends.connections) {
      const server = connection.name;
      for (const resource of connection.resources) {
        resources.set(addresses.outward(server, resource.uri), {
          signature: JSON.stringify(resource),
          build: () => backendResource(server, resource, readBackend, addresses),
        });
      }
      for (const template of connection.resourceTemplates) {
        resources.set(addresses.outward(server, template.uriTemplate), {
          signature: JSON.stringify(template),
          build: () => backendTemplate(server, template, readBackend, addresses),
        });
      }
      for (const prompt of connection.prompts) {
        const name = promptName(server, prompt.name);
        if (prompts.has(name)) continue;
        prompts.set(name, {
          signature: JSON.stringify(prompt),
          build: () => backendPrompt(name, server, prompt, getPrompt),
        });
      }
    }
    return { tools, resources, prompts };
  };

  const initial = current();
  const server = createServer({
    name: options.name ?? 'mcpkit-gateway',
    version: options.version ?? '0.1.0',
    budget: options.budget ?? 1_000_000,
    tools: [...initial.tools.values()].map((tool) => tool.build()),
    resources: [...initial.resources.values()].map((resource) => resource.build()),
    prompts: [...initial.prompts.values()].map((prompt) => prompt.build()),
    ...(options.middleware ? { middleware: options.middleware } : {}),
    onClose: () => backends.close(),
  });

  // The signatures of what the server offers now; a change of a backend's lists adds, removes or replaces entries
  // (the kit tells the gateway's clients that the list changed).
  const offered = {
    tools: new Map([...initial.tools].map(([name, tool]) => [name, tool.signature])),
    resources: new Map([...initial.resources].map(([uri, resource]) => [uri, resource.signature])),
    prompts: new Map([...initial.prompts].map(([name, prompt]) => [name, prompt.signature])),
  };
  const reconcile = <Definition>(
    have: Map<string, string>,
    want: Map<string, { signature: string; build(): Definition }>,
    add: (definition: Definition) => void,
    remove: (key: string) => void,
  ) => {
    for (const key of [...have.keys()]) {
      if (want.get(key)?.signature === have.get(key)) continue;
      remove(key);
      have.delete(key);
    }
    for (const [key, entry] of want) {
      if (have.has(key)) continue;
      add(entry.build());
      have.set(key, entry.signature);
    }
  };
  const sync = () => {
    const next = current();
    reconcile(
      offered.tools,
      next.tools,
      (tool) => server.addTool(tool),
      (name) => server.removeTool(name),
    );
    reconcile(
      offered.resources,
      next.resources,
      (resource) => server.addResource(resource),
      (uri) => server.removeResource(uri),
    );
    reconcile(
      offered.prompts,
      next.prompts,
      (prompt) => server.addPrompt(prompt),
      (name) => server.removePrompt(name),
    );
  };
  const unsubscribe = host.onRegistryChange(sync);

  return {
    server,
    host,
    async close() {
      unsubscribe();
      await server.close();
      await backends.close();
    },
  };
}
