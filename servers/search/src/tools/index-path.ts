import { stat } from 'node:fs/promises';
import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { DirectoryIndexing } from '../local-index/directory-indexing.js';
import { reportIndexProgress } from './indexing-progress.js';

/** The `index_path` tool: adds or refreshes a directory inside the allowed ones, with progress and cancellation. */
export function indexPath(openIndexing: () => Promise<DirectoryIndexing>) {
  return defineTool({
    name: 'index_path',
    title: 'Index a directory',
    description:
      'Add or refresh the index of a directory inside the allowed directories (only changed files are read). ' +
      'The server already indexes its directories at start and watches them; use this after large changes.',
    input: z.object({
      path: z.string().min(1).describe('Directory to index: absolute, or relative to the first allowed directory'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async handler({ path }, { signal, progress }) {
      const indexing = await openIndexing();
      const { path: directory } = await indexing.directories.resolveExisting(path);
      if (!(await stat(directory)).isDirectory()) {
        throw new ToolError(`${path} is a file; pass a directory (files are picked up by indexing their folder).`);
      }
      const report = await indexing.indexer.refresh(directory, {
        signal,
        onProgress: (state) => reportIndexProgress(progress, state),
      });
      return {
        content: [
          {
            type: 'text' as const,
            text:
              `Indexed ${directory} in ${report.durationMs} ms: ${report.scanned} files seen, ${report.added} added, ` +
              `${report.updated} updated, ${report.removed} removed, ${report.unchanged} unchanged, ` +
              `${report.binary} skipped as binary.` +
              report.notes.map((note) => `\nNote: ${note}`).join(''),
          },
        ],
        structuredContent: { ...report },
      };
    },
  });
}
