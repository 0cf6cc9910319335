import { defineResource, ToolError } from '@mcpkit/server-kit';
import type { ConcurrencyLimit } from '../concurrency-limit.js';
import { looksBinary } from '../local-index/text-extraction.js';
import type { SearchIndex } from '../search-index.js';
import { shownTitle } from '../shown-title.js';

/** resources/list shows at most this many documents; search finds the rest. */
const maxListed = 500;
const maxReadBytes = 4 * 1024 * 1024;

/** The indexed documents as MCP resources: `file://` URIs of a local index, the index's own URIs of a shared one. */
export function documentsResource(index: SearchIndex, wholeFileReads: ConcurrencyLimit) {
  return defineResource({
    name: 'document',
    template: index.documentUris.template,
    title: 'Indexed document',
    description: `A text document of the search index (the first ${maxListed} by path are listed; search finds all).`,
    mimeType: 'text/plain',
    list: async () =>
      (await index.listDocuments(maxListed)).map((document) => ({
        uri: index.documentUris.uriOf(document.path),
        name: shownTitle(document.title) || document.path,
        size: document.size,
        mimeType: document.path.endsWith('.md') ? 'text/markdown' : 'text/plain',
      })),
    read(uri, _variables, { signal }) {
      const path = index.documentUris.pathOf(uri);
      // Whole files, a few at a time (see get_document).
      return wholeFileReads.run(async () => {
        const { path: file, bytes } = await index.readDocument(path, {
          maxBytes: maxReadBytes,
          tooLarge: () => `${uri} is larger than ${maxReadBytes / 1024 / 1024} MB; read it with get_document instead.`,
          signal,
        });
        if (looksBinary(bytes)) throw new ToolError(`${uri} is not text; read it with get_document instead.`);
        return {
          text: bytes.toString('utf8'),
          mimeType: file.endsWith('.md') ? 'text/markdown' : 'text/plain',
        };
      }, signal);
    },
  });
}
