/** One web search result as every provider returns it. */
export interface WebSearchResult {
  title: string;
  url: string;
  snippet: string;
  /** When the page was published or last seen, as the provider says it. */
  age?: string;
}

/** What the model asked for. */
export interface WebSearchRequest {
  query: string;
  /** Results wanted, 1..20. */
  count: number;
  /** Pages of `count` results to skip, 0..9. */
  offset: number;
}

/** A web search engine behind one interface; each provider maps its own response format to this. */
export interface WebSearchProvider {
  /** Shown to the model and in logs, e.g. "Brave Search". */
  readonly name: string;
  search(request: WebSearchRequest, signal: AbortSignal): Promise<WebSearchResult[]>;
}
