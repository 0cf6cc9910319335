import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectedClient } from './connected-client.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from './types.js';

/** Everything a server offers, all pages read. */
export interface ServerLists {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
}

const maxPages = 100;

/** Follows `nextCursor` through a paginated list, up to a bound so that a server that always has more cannot hang. */
async function allPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return items;
}

/** Lists the tools, prompts, resources and resource templates of the capabilities the server declared, all pages. */
export async function listEverything(connected: ConnectedClient, timeout: number): Promise<ServerLists> {
  const capabilities = connected.client.getServerCapabilities() ?? {};
  const options = { timeout };
  const page = (cursor: string | undefined) => (cursor ? { cursor } : {});
  const [tools, prompts, resources, resourceTemplates] = await Promise.all([
    capabilities.tools
      ? allPages(async (cursor) => {
          const result = await connected.client.listTools(page(cursor), options);
          return { items: result.tools, nextCursor: result.nextCursor };
        })
      : [],
    capabilities.prompts
      ? allPages(async (cursor) => {
          const result = await connected.client.listPrompts(page(cursor), options);
          return { items: result.prompts, nextCursor: result.nextCursor };
        })
      : [],
    capabilities.resources
      ? allPages(async (cursor) => {
          const result = await connected.client.listResources(page(cursor), options);
          return { items: result.resources, nextCursor: result.nextCursor };
        })
      : [],
    capabilities.resources
      ? allPages(async (cursor) => {
          const result = await connected.client.listResourceTemplates(page(cursor), options);
          return { items: result.resourceTemplates, nextCursor: result.nextCursor };
        }).catch((error: unknown) => {
          // Templates came later than resources: a server without them answers "method not found".
          if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) return [];
          throw error;
        })
      : [],
  ]);
  return { tools, prompts, resources, resourceTemplates };
}
