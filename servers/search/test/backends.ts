import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { openSearchIndex } from '../src/open-search-index.js';
import type { SearchIndex } from '../src/search-index.js';
import type { SearchServerOptions } from '../src/server.js';
import { createTestDatabase, postgresAvailable, postgresSkipReason, type TestDatabase } from './postgres-databases.js';

/** An index backend the shared suite runs on. */
export interface Backend {
  name: 'sqlite' | 'postgres';
  /** Why this backend's tests are skipped here, or '' when they run. */
  skipReason: string;
  /** Creates an empty index for one test; `options` go to createSearchServer or openSearchIndex. */
  create(workspace: string): Promise<BackendIndex>;
  /** The path a result shows for the file `relative` (with /) under the directory `root`. */
  shownPath(root: string, relative: string): string;
}

/** One test's empty index. */
export interface BackendIndex {
  options: Pick<SearchServerOptions, 'indexFile' | 'indexUrl'>;
  /** The PostgreSQL database behind it, for tests that start more processes on it. */
  database?: TestDatabase;
  remove(): Promise<void>;
}

/** SQLite FTS5 in a file of the test's workspace; results show real paths. */
export const sqliteBackend: Backend = {
  name: 'sqlite',
  skipReason: '',
  async create(workspace) {
    return { options: { indexFile: join(workspace, 'index.sqlite') }, remove: async () => {} };
  },
  shownPath: (root, relative) => join(root, ...relative.split('/')),
};

/** PostgreSQL in a database of its own on the test run's cluster; results show source/path. */
export const postgresBackend: Backend = {
  name: 'postgres',
  skipReason: postgresAvailable ? '' : postgresSkipReason || 'PostgreSQL is not available',
  async create() {
    const database = await createTestDatabase();
    return { options: { indexUrl: database.url }, database, remove: () => database.drop() };
  },
  shownPath: (root, relative) => `${basename(root)}/${relative}`,
};

/** Both backends, for `describe.each`. */
export const backends: Backend[] = [sqliteBackend, postgresBackend];

/** An index of `directories` on a backend, filled once; `close` removes it. */
export async function indexedOn(
  backend: Backend,
  directories: string[],
): Promise<{ index: SearchIndex; close(): Promise<void> }> {
  const workspace = await mkdtemp(join(tmpdir(), 'mcpkit-search-backend-'));
  const created = await backend.create(workspace);
  const index = openSearchIndex({ directories, ...created.options });
  await index.indexing?.refreshAll();
  return {
    index,
    async close() {
      await index.close();
      await created.remove();
      await rm(workspace, { recursive: true, force: true });
    },
  };
}
