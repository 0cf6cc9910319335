import type { KitServer } from '@mcpkit/server-kit';
import { connectTestClient, type TestClient } from '@mcpkit/server-kit/testing';
import { createSearchServer, type SearchServerOptions } from '../src/server.js';

/** A search server and a client connected to it in memory; `close` closes both. */
export interface InMemoryServer {
  server: KitServer;
  client: TestClient;
  close(): Promise<void>;
}

/** Starts a search server for a test: an in-memory index, no watcher and no log unless `options` say otherwise. */
export async function startInMemoryServer(
  options: Partial<SearchServerOptions> & Pick<SearchServerOptions, 'directories'>,
): Promise<InMemoryServer> {
  const server = createSearchServer({ indexFile: ':memory:', watch: false, logLevel: 'emergency', ...options });
  const client = await connectTestClient(server);
  return {
    server,
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}
