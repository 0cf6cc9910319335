import type { ServerConnection } from '../connection/server-connection.js';
import type { CallToolResult } from '../connection/types.js';
import { templatePrefix } from './uri-template.js';

// Links are remembered for the life of the host; the oldest are forgotten past this many.
const defaultMaxLinks = 1000;

/**
 * Finds the server that can read a resource URI: the one that lists it, else the one whose tool returned a link to
 * it, else the one with a resource template whose literal start the URI begins with (the longest such start wins).
 */
export class ResourceOwners {
  private readonly linked = new Map<string, string>();

  constructor(private readonly maxLinks = defaultMaxLinks) {}

  /** Notes the resource links in a server's tool result, so that they can be read later. */
  noteResult(server: string, result: CallToolResult): void {
    for (const block of result.content ?? []) {
      if (block.type !== 'resource_link') continue;
      this.linked.delete(block.uri);
      this.linked.set(block.uri, server);
      if (this.linked.size > this.maxLinks) {
        const oldest = this.linked.keys().next().value;
        if (oldest !== undefined) this.linked.delete(oldest);
      }
    }
  }

  /** The connection to read a URI from, or undefined when no server is known to hold it. */
  ownerOf(uri: string, connections: readonly ServerConnection[]): ServerConnection | undefined {
    const listing = connections.find((connection) => connection.resources.some((resource) => resource.uri === uri));
    if (listing) return listing;
    const linker = this.linked.get(uri);
    const linking = connections.find((connection) => connection.name === linker);
    if (linking) return linking;
    let best: { connection: ServerConnection; length: number } | undefined;
    for (const connection of connections) {
      for (const template of connection.resourceTemplates) {
        const prefix = templatePrefix(template.uriTemplate);
        if (uri.startsWith(prefix) && prefix.length > (best?.length ?? -1))
          best = { connection, length: prefix.length };
      }
    }
    return best?.connection;
  }
}
