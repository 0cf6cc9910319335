import { ToolError } from '@mcpkit/server-kit';

/** A sentence for the failures a reader of a shared index meets: no tables yet, no grants, no connection. */
export function describeDatabaseError(error: unknown): unknown {
  if (error instanceof ToolError) return error;
  const code = (error as { code?: string }).code;
  if (code === '42P01') {
    return new ToolError(
      'The shared index is empty: no indexer has written to this database yet. Run `mcpkit-search index ' +
        '--index-url URL DIR` once (or keep it running with --watch).',
    );
  }
  if (code === '42501') {
    return new ToolError(
      'The database role of this server may not read the index tables; grant it SELECT on search_meta, ' +
        'search_documents, search_passages and search_stats.',
    );
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '28P01' || code === '3D000') {
    return new ToolError(`The index database cannot be reached (${(error as Error).message}).`);
  }
  return error;
}
