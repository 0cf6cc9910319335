import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { LocalIndex } from '../local-index/local-index.js';

/** The `index_status` tool: what is indexed and whether indexing is running. */
export function indexStatus(index: LocalIndex) {
  return defineTool({
    name: 'index_status',
    title: 'Index status',
    description:
      'Show which directories are indexed, how many documents the index holds, and any indexing in progress.',
    input: z.object({}),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler() {
      const counts = index.database.counts();
      const running = index.indexer.progress;
      const last = index.indexer.lastReport;
      const status = {
        directories: [...index.directories.roots],
        indexFile: index.database.file,
        documents: counts.documents,
        bytes: counts.bytes,
        ready: index.ready,
        ...(running ? { running } : {}),
        ...(last ? { lastRun: last } : {}),
      };
      const lines = [
        `Directories: ${status.directories.join(', ')}`,
        `Index file: ${status.indexFile}`,
        `Documents: ${counts.documents} (${(counts.bytes / 1024 / 1024).toFixed(1)} MB of text)`,
        running
          ? `Indexing ${running.directory}: ${running.phase} ${running.done}${running.total !== undefined ? ` of ${running.total}` : ''} files`
          : 'No indexing running.',
      ];
      if (last) {
        lines.push(
          `Last run (${last.directory}): ${last.added} added, ${last.updated} updated, ${last.removed} removed, ${last.unchanged} unchanged in ${last.durationMs} ms.`,
          ...last.notes.map((note) => `Note: ${note}`),
        );
      }
      return { content: [{ type: 'text' as const, text: lines.join('\n') }], structuredContent: status };
    },
  });
}
