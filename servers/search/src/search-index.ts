import type { ReadLimits } from './confined-file.js';
import type { DirectoryIndexing } from './local-index/directory-indexing.js';
import type { SearchPage } from './local-index/search-query.js';

/** What the `search` tool asks of an index: the query as typed and the page wanted. */
export interface SearchQuery {
  query: string;
  limit: number;
  offset: number;
  /** Only documents whose path relative to its directory (or source) matches this glob. */
  pathGlob?: string;
}

/** A document as `resources/list` shows it. */
export interface ListedDocument {
  /** The path that `search` shows and `get_document` accepts. */
  path: string;
  title: string;
  size: number;
}

/** A document's text as `get_document` and resources read it. */
export interface DocumentText {
  /** The path the document is known by (a real path on disk, or source/path in a shared index). */
  path: string;
  bytes: Buffer;
}

/**
 * The storage the tools, resources and prompts use: an SQLite FTS5 file (`LocalIndex`) or PostgreSQL
 * (`PostgresIndex`). Nothing outside the two implementations knows which one it talks to.
 */
export interface SearchIndex {
  /** Where the index lives, for `index_status` (a file path, or a PostgreSQL URL without its password). */
  readonly location: string;
  /** The folders this process indexes and watches; undefined for a reader of a shared index. */
  readonly indexing: DirectoryIndexing | undefined;
  /** The URI template of documents as resources, and how a path becomes a URI and back. */
  readonly documentUris: DocumentUris;
  /** Waits up to `timeoutMs` for the first indexing run; resolves true when none is pending. */
  whenReady(timeoutMs: number): Promise<boolean>;
  /** True once the first indexing run has finished (or when this process does not index). */
  readonly ready: boolean;
  /** One page of ranked hits, best first; a query error is a ToolError with a sentence. */
  search(query: SearchQuery, options?: { signal?: AbortSignal }): Promise<SearchPage>;
  /** How many text documents and bytes the index holds. */
  counts(): Promise<{ documents: number; bytes: number }>;
  /** The first `limit` text documents by path. */
  listDocuments(limit: number): Promise<ListedDocument[]>;
  /** Reads a document by the path the model gives; refuses what lies outside the index's documents. */
  readDocument(path: string, limits: ReadLimits): Promise<DocumentText>;
  /** Stops indexing and watching and closes the storage. */
  close(): Promise<void>;
}

/** How documents are named as resources. */
export interface DocumentUris {
  /** The RFC 6570 template of `resources/templates/list`. */
  template: string;
  /** The URI of a document path. */
  uriOf(path: string): string;
  /** The document path of a URI; throws a ToolError for a URI of another kind. */
  pathOf(uri: string): string;
}
