/** The text of a snippet source: a named region of a file (markers left out), or the whole file. */
export declare function snippetSource(path: string, region?: string): string;
/** The document with every marked block replaced by its source, and the markers whose block changed. */
export declare function syncSnippets(markdown: string): { markdown: string; stale: string[] };
