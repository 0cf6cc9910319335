import { fileURLToPath, pathToFileURL } from 'node:url';
import { ToolError } from '@mcpkit/server-kit';
import type { DocumentUris } from './search-index.js';

/** Documents of a local index are resources at their `file://` URIs. */
export const fileUris: DocumentUris = {
  template: 'file://{+path}',
  uriOf: (path) => pathToFileURL(path).href,
  pathOf(uri) {
    try {
      return fileURLToPath(uri);
    } catch {
      throw new ToolError(`${uri} is not a file URI.`);
    }
  },
};

/** Documents of a shared index are resources at `search://source/path`: no reader needs the files on its disk. */
export const sharedUris: DocumentUris = {
  template: 'search://{+path}',
  uriOf: (path) => `search://${encodeURI(path)}`,
  pathOf(uri) {
    if (!uri.startsWith('search://')) throw new ToolError(`${uri} is not a document of this index (search://...).`);
    return decodeURI(uri.slice('search://'.length));
  },
};
