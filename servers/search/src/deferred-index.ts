import { ToolError } from '@mcpkit/server-kit';
import type { ReadLimits } from './confined-file.js';
import type { DirectoryIndexing } from './local-index/directory-indexing.js';
import type { SearchPage } from './local-index/search-query.js';
import type { DocumentText, DocumentUris, ListedDocument, SearchIndex, SearchQuery } from './search-index.js';

/** What the server knows of its index before opening it, and how to open it. */
export interface DeferredIndexOptions {
  /** Where the index lives, as `index_status` shows it. */
  location: string;
  documentUris: DocumentUris;
  /** Loads the backend's modules and opens the index (its first indexing run is started by this function). */
  open(): Promise<SearchIndex>;
  /** Hears why an attempt to open failed (for the log); the calls that needed the index get a sentence. */
  onOpenFailed(error: unknown): void;
}

/**
 * The server's index, opened after the server has answered its first `tools/list` (`start`) or when a call first
 * needs it, whichever comes first: the SQLite or PostgreSQL modules load and the file is opened (or migrated) while
 * the client is already talking to the server. Every call that needs the index waits for the opening; when it fails,
 * each such call answers with one sentence naming the index, and the next call tries again.
 */
export class DeferredIndex implements SearchIndex {
  readonly location: string;
  readonly documentUris: DocumentUris;
  private opening: Promise<SearchIndex> | undefined;
  private opened: SearchIndex | undefined;
  private closed = false;

  constructor(private readonly options: DeferredIndexOptions) {
    this.location = options.location;
    this.documentUris = options.documentUris;
  }

  /** Starts opening the index in the background, if nothing has yet. */
  start(): void {
    if (this.closed || this.opening) return;
    this.open().catch(() => {});
  }

  /** The open index, opening it first if needed; rejects with a ToolError sentence when it cannot be opened. */
  open(): Promise<SearchIndex> {
    if (this.opened) return Promise.resolve(this.opened);
    if (this.closed) return Promise.reject(new ToolError('The search server is shutting down.'));
    this.opening ??= this.options.open().then(
      async (index) => {
        if (this.closed) {
          await index.close();
          throw new ToolError('The search server is shutting down.');
        }
        this.opened = index;
        return index;
      },
      (error: unknown) => {
        this.opening = undefined;
        this.options.onOpenFailed(error);
        const reason = error instanceof Error ? error.message : String(error);
        throw new ToolError(
          `The search index (${this.location}) could not be opened: ${reason.replace(/\.$/, '')}. ` +
            'Check the index file or URL the server was started with; the next call tries again.',
        );
      },
    );
    return this.opening;
  }

  /** The indexing of the open index (undefined before it is open, or for a reader of a shared index). */
  get indexing(): DirectoryIndexing | undefined {
    return this.opened?.indexing;
  }

  get ready(): boolean {
    return this.opened?.ready ?? false;
  }

  async whenReady(timeoutMs: number): Promise<boolean> {
    const started = performance.now();
    const index = await this.open();
    return index.whenReady(Math.max(0, timeoutMs - (performance.now() - started)));
  }

  async search(query: SearchQuery, options?: { signal?: AbortSignal }): Promise<SearchPage> {
    return (await this.open()).search(query, options);
  }

  async counts(): Promise<{ documents: number; bytes: number }> {
    return (await this.open()).counts();
  }

  async listDocuments(limit: number): Promise<ListedDocument[]> {
    return (await this.open()).listDocuments(limit);
  }

  async readDocument(path: string, limits: ReadLimits): Promise<DocumentText> {
    return (await this.open()).readDocument(path, limits);
  }

  /** Closes the index if it was opened (waiting for an opening under way); nothing opens it afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const index = await this.opening?.catch(() => undefined);
    await index?.close();
  }
}
