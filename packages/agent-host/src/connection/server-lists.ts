import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { ConnectedClient } from './connected-client.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from './types.js';

/** Everything a server offers, all pages read. */
export interface ServerLists {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
}

/**
 * Lists the tools, prompts, resources and resource templates of the capabilities the server declared, all pages (the
 * SDK follows `nextCursor` up to the client's page cap, so a server that always has more cannot hang the host).
 */
export async function listEverything(connected: ConnectedClient, timeout: number): Promise<ServerLists> {
  const { client } = connected;
  const capabilities = client.getServerCapabilities() ?? {};
  // Always asked again: a list is read at start and after the server said it changed.
  const options = { timeout, cacheMode: 'refresh' } as const;
  const [tools, prompts, resources, resourceTemplates] = await Promise.all([
    capabilities.tools ? client.listTools(undefined, options).then((result) => result.tools) : [],
    capabilities.prompts ? client.listPrompts(undefined, options).then((result) => result.prompts) : [],
    capabilities.resources ? client.listResources(undefined, options).then((result) => result.resources) : [],
    capabilities.resources
      ? client
          .listResourceTemplates(undefined, options)
          .then((result) => result.resourceTemplates)
          .catch((error: unknown) => {
            // Templates came later than resources: a server without them answers "method not found".
            if (error instanceof ProtocolError && error.code === ProtocolErrorCode.MethodNotFound) return [];
            throw error;
          })
      : [],
  ]);
  return { tools, prompts, resources, resourceTemplates };
}
