import Database from 'better-sqlite3';
import { type SearchPage, type SearchRequest, searchIndex } from './search-query.js';

// Task run by the search worker pool: one read-only connection per index file, opened once per worker.
const connections = new Map<string, { connection: Database.Database }>();

/** Off-thread task: a search on the index file, read through this worker's own read-only connection. */
export function searchIndexFile(input: { indexFile: string; request: SearchRequest }): SearchPage {
  let database = connections.get(input.indexFile);
  if (!database) {
    // WAL mode (set by the writer) lets this reader run while the indexer writes; it sees committed batches.
    database = { connection: new Database(input.indexFile, { readonly: true, fileMustExist: true }) };
    connections.set(input.indexFile, database);
  }
  return searchIndex(database, input.request);
}
