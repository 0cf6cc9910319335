import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineResource, ToolError } from '@mcpkit/server-kit';
import { readConfinedFile } from '../confined-file.js';
import type { LocalIndex } from '../local-index/local-index.js';
import { looksBinary } from '../local-index/text-extraction.js';

/** resources/list shows at most this many documents; search finds the rest. */
const maxListed = 500;
const maxReadBytes = 4 * 1024 * 1024;

/** The indexed documents as MCP resources at their `file://` URIs. */
export function documentsResource(index: LocalIndex) {
  return defineResource({
    name: 'document',
    template: 'file://{+path}',
    title: 'Indexed document',
    description: `A text document of the search index (the first ${maxListed} by path are listed; search finds all).`,
    mimeType: 'text/plain',
    list: () =>
      index.database.listDocuments(maxListed).map((document) => ({
        uri: pathToFileURL(document.path).href,
        name: document.title || document.path,
        size: document.size,
        mimeType: document.path.endsWith('.md') ? 'text/markdown' : 'text/plain',
      })),
    async read(uri) {
      let path: string;
      try {
        path = fileURLToPath(uri);
      } catch {
        throw new ToolError(`${uri} is not a file URI.`);
      }
      const { path: file, bytes } = await readConfinedFile(index.directories, path, {
        maxBytes: maxReadBytes,
        tooLarge: () => `${uri} is larger than ${maxReadBytes / 1024 / 1024} MB; read it with get_document instead.`,
      });
      if (looksBinary(bytes)) throw new ToolError(`${uri} is not text; read it with get_document instead.`);
      return {
        text: bytes.toString('utf8'),
        mimeType: file.endsWith('.md') ? 'text/markdown' : 'text/plain',
      };
    },
  });
}
