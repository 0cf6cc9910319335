import { createHash } from 'node:crypto';
import { decodeCursor, defineTool, encodeCursor, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { SearchHit } from '../local-index/search-query.js';
import type { SearchIndex } from '../search-index.js';
import { whenIndexReady } from './indexing-progress.js';

/** How long a search waits for the first indexing run before answering from what is indexed so far. */
const readyWaitMs = 15_000;
/**
 * Results paged through at most, as search engines stop somewhere: a page past them ranks every match before it
 * (on the search worker, under its deadline) only to show what a narrower query finds at once. The server's own
 * cursors never point past it; a cursor the model wrote itself with an offset out of range is refused.
 */
export const maxPagedResults = 10_000;

/** Characters of a search answer, text and structured content together. */
const searchBudget = 20_000;
/**
 * Characters of a page's hits (each counted twice: its line of text and its structured entry) within the budget; the
 * rest is room for the notes and the cursor. A page of 50 ordinary hits was larger than the budget, which cut it to
 * 32 hits while the cursor went on 50 later: 36 of 120 files were never shown. A page now ends at the last hit that
 * fits and its cursor goes on from there.
 */
const hitsBudget = searchBudget - 2_000;

const invalidCursor = 'The cursor is not valid: pass back exactly the nextCursor of an earlier answer, or omit it.';

/**
 * What a cursor keeps of its query, to refuse it for another: a digest of 22 characters. The query itself (up to 1,000
 * characters, 4,000 in base64 for CJK, 8,000 for control characters) made a cursor that, written twice (in the text
 * and the structured results), outgrew the room a page keeps for it, and the budget's cut took hits and the cursor.
 */
function queryDigest(query: string): string {
  return createHash('sha256').update(query).digest('base64url').slice(0, 22);
}

/** Control characters (C0, DEL, C1 with U+0085 NEXT LINE) and the Unicode line and paragraph separators. */
const breaksALine = /[\p{Cc}\u2028\u2029]/gu;

/**
 * A file name or title on one line of the results text: control characters and line separators written as escapes
 * (`\n`, `\u2028`), so a file named with line breaks cannot start lines that read as hits of their own. The
 * structured results keep it as is.
 */
function oneLine(text: string): string {
  return text.replace(breaksALine, (character) => {
    const escaped = JSON.stringify(character).slice(1, -1);
    return escaped !== character ? escaped : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

function formatHit(hit: SearchHit, rank: number): string {
  const title = hit.title ? ` (${oneLine(hit.title)})` : '';
  return `${rank}. ${oneLine(hit.path)}:${hit.line}${title} score ${hit.score}\n   ${hit.snippet}`;
}

/** The `search` tool: ranked full-text search over the indexed directories. */
export function search(index: SearchIndex) {
  return defineTool({
    name: 'search',
    title: 'Search local documents',
    description:
      'Full-text search over the local documents (BM25 ranking; matches in titles and paths count more). Plain ' +
      'words or a question match any of the words; also "exact phrase", prefix*, AND / OR / NOT, title:word. ' +
      'Results give path:line and a snippet with matches in **bold**; read more with get_document.',
    input: z.object({
      query: z.string().min(1).max(1000).describe('Words, a question, or an FTS5 query'),
      limit: z.number().int().min(1).max(50).optional().describe('Results per page (default 10, at most 50)'),
      cursor: z.string().optional().describe('The nextCursor of an earlier answer, for the next page'),
      path_glob: z
        .string()
        .max(500)
        .optional()
        .describe('Only files whose path relative to its directory matches this glob, e.g. "docs/**/*.md"'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    budget: searchBudget,
    truncationHint: 'Lower limit, narrow the query or use path_glob.',
    async handler({ query, limit = 10, cursor, path_glob }, { signal, progress }) {
      let offset = 0;
      if (cursor !== undefined) {
        const state = decodeCursor(cursor);
        if (typeof state.offset !== 'number' || state.query !== queryDigest(query)) {
          throw new ToolError('The cursor belongs to a different query; repeat the same query or omit the cursor.');
        }
        // A forged offset answered odd pages: -3 two hits ranked -2 and -1, 2.5 hits ranked from 3.5.
        if (!Number.isInteger(state.offset) || state.offset < 0 || state.offset >= maxPagedResults) {
          throw new ToolError(invalidCursor);
        }
        offset = state.offset;
      }
      const ready = await whenIndexReady(index, readyWaitMs, progress);
      const page = await index.search(
        { query, limit, offset, ...(path_glob ? { pathGlob: path_glob } : {}) },
        { signal },
      );
      const hits: SearchHit[] = [];
      const hitLines: string[] = [];
      let size = 0;
      for (const hit of page.hits) {
        const line = formatHit(hit, offset + hits.length + 1);
        const cost = line.length + JSON.stringify(hit).length + 2;
        if (hits.length > 0 && size + cost > hitsBudget) break;
        hits.push(hit);
        hitLines.push(line);
        size += cost;
      }
      const more = page.more || hits.length < page.hits.length;
      const next = offset + hits.length;
      const pagedOn = more && next < maxPagedResults;
      const nextCursor = pagedOn ? encodeCursor({ offset: next, query: queryDigest(query) }) : undefined;
      const lines: string[] = [];
      if (!ready) lines.push('[The first indexing run is still going: results cover only the files indexed so far.]');
      if (hits.length === 0) {
        lines.push(
          offset > 0
            ? 'No more results.'
            : `No results for ${JSON.stringify(query)}. Try other words, fewer words, or a prefix* term.`,
        );
      } else {
        lines.push(...hitLines);
      }
      if (nextCursor) lines.push(`[More results: call search again with cursor "${nextCursor}".]`);
      else if (more) {
        lines.push(
          `[More results follow, but only the first ${maxPagedResults} are paged: narrow the query or use path_glob.]`,
        );
      }
      return {
        content: [{ type: 'text' as const, text: lines.join('\n') }],
        structuredContent: { results: hits, ...(nextCursor ? { nextCursor } : {}) },
      };
    },
  });
}
