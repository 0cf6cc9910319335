import type { KitServer } from '@mcpkit/server-kit';
import { createSearchServer, type SearchServerOptions } from '../src/server.js';

/** A search server for the web tools' tests: an in-memory index that is never filled and no watcher. */
export function webOnlyServer(options: Partial<SearchServerOptions> = {}): KitServer {
  return createSearchServer({
    directories: [process.cwd()],
    indexFile: ':memory:',
    indexOnStart: false,
    watch: false,
    ...options,
  });
}
