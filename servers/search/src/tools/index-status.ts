import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { SearchIndex } from '../search-index.js';

/** The `index_status` tool: what is indexed and whether indexing is running. */
export function indexStatus(index: SearchIndex) {
  return defineTool({
    name: 'index_status',
    title: 'Index status',
    description:
      'Show which directories are indexed, how many documents the index holds, and any indexing in progress.',
    input: z.object({}),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler() {
      const counts = await index.counts();
      const running = index.indexing?.indexer.progress;
      const last = index.indexing?.indexer.lastReport;
      const status = {
        directories: [...(index.indexing?.directories.roots ?? [])],
        index: index.location,
        documents: counts.documents,
        bytes: counts.bytes,
        ready: index.ready,
        ...(running ? { running } : {}),
        ...(last ? { lastRun: last } : {}),
      };
      const lines = [
        status.directories.length > 0
          ? `Directories: ${status.directories.join(', ')}`
          : 'Directories: none here (this server reads a shared index that another process writes)',
        `Index: ${status.index}`,
        `Documents: ${counts.documents} (${(counts.bytes / 1024 / 1024).toFixed(1)} MB of text)`,
        running
          ? running.phase === 'waiting'
            ? `Indexing ${running.directory}: waiting (${running.message ?? 'another indexer is writing'})`
            : `Indexing ${running.directory}: ${running.phase} ${running.done}${running.total !== undefined ? ` of ${running.total}` : ''} files`
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
