import { createWorkerPool, type OffThreadTask } from '@mcpkit/server-kit';
import type { SearchPage, SearchRequest } from './search-query.js';

/** How long one search may run before its worker is stopped. */
export const searchTimeoutMs = 10_000;

const searchTask: OffThreadTask = { module: new URL('./search-task.js', import.meta.url), name: 'searchIndexFile' };

/** Searches of one index file, run on worker threads that a deadline or a cancel terminates. */
export interface SearchWorkers {
  /** Runs a search off the main thread; rejects with a ToolError when stopped or when the query is refused. */
  search(request: SearchRequest, options?: { signal?: AbortSignal }): Promise<SearchPage>;
  /** Terminates the workers. */
  close(): Promise<void>;
}

/**
 * Creates the search workers of an index file. A broad query scores every matching passage before it can answer,
 * which on a large index takes seconds of SQLite: on a worker the main thread keeps serving other requests.
 */
export function createSearchWorkers(indexFile: string): SearchWorkers {
  const pool = createWorkerPool({ size: 2 });
  return {
    search(request, options = {}) {
      return pool.run<SearchPage>(
        searchTask,
        { indexFile, request },
        { timeoutMs: searchTimeoutMs, label: 'the search', ...(options.signal ? { signal: options.signal } : {}) },
      );
    },
    close: () => pool.close(),
  };
}
