import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { walking } from '../loaded-on-first-use.js';

/** search_files: finds files and directories by glob, streaming the walk, in pages. */
export function searchFiles(dependencies: ToolDependencies) {
  return defineTool({
    name: 'search_files',
    title: 'Search Files',
    description:
      'Find files and directories under a path whose name or relative path matches a glob. A pattern without a ' +
      'slash matches names at any depth ("*.ts", "README*"); a pattern with a slash matches the path relative to ' +
      '`path` ("src/**/*.test.ts"). Skips .gitignore-d files, .git and node_modules unless includeIgnored is set. ' +
      'Returns full paths, in pages.',
    input: z.object({
      path: z.string().describe('Directory to search, absolute or relative to the first allowed directory'),
      pattern: z.string().min(1).describe('Glob matched against names (no slash) or relative paths (with a slash)'),
      excludePatterns: z.array(z.string()).optional().default([]).describe('Globs of entries to skip (not entered)'),
      includeIgnored: z
        .boolean()
        .optional()
        .default(false)
        .describe('Also search .gitignore-d files, .git, node_modules'),
      maxResults: z.number().int().positive().max(10_000).optional().describe('Paths per page'),
      cursor: z.string().optional().describe('The cursor from a previous page'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler(args, context) {
      const {
        IgnoreRules,
        globMatcher,
        TimeSlice,
        walk,
        notEnteredNote,
        readWalkCursor,
        walkCursor,
        walkCursorLength,
      } = await walking();
      const scope = await dependencies.guard.scope(context);
      const root = await scope.directory(args.path);
      const position = readWalkCursor(args.cursor, 'search_files', root);
      const matches = globMatcher([args.pattern]);
      const excluded = globMatcher(args.excludePatterns);
      const cap = args.maxResults ?? dependencies.limits.searchResults;
      const slice = new TimeSlice(context.signal, dependencies.limits.walkTimeMs);
      const top = scope.directoryOf(root);
      const ignore = args.includeIgnored ? undefined : IgnoreRules.forRoot(top, root);
      const notEntered = { directories: 0, unopened: 0 };
      const found: string[] = [];
      let chars = 0;
      let last: string | undefined;
      /** The last match shown: a page cut by its cap or the budget continues after it. */
      let lastShown: string | undefined;
      let stoppedBy: 'cap' | 'size' | 'time' | undefined;
      for (const entry of walk({
        root,
        scope,
        notEntered,
        ...(ignore ? { ignore } : {}),
        exclude: (relative) => excluded(relative),
        ...(position ? { after: position.after } : {}),
      })) {
        if (!(await slice.tick())) {
          stoppedBy = 'time';
          break;
        }
        if (typeof entry === 'symbol') continue; // the walk's pause, its only symbol
        if (matches(entry.relative)) {
          if (found.length === cap) {
            stoppedBy = 'cap';
            break;
          }
          // The path, plus the note and cursor the answer would end with if it stopped after it: paths of a deep
          // tree fill the budget long before the cap, and a page the server's safety net cuts loses its cursor.
          const closing = walkCursorLength('search_files', root, { after: entry.relative }) + 500;
          if (found.length > 0 && chars + entry.path.length + 1 + closing > dependencies.limits.readBudget) {
            stoppedBy = 'size';
            break;
          }
          found.push(entry.path);
          chars += entry.path.length + 1;
          lastShown = entry.relative;
        }
        last = entry.relative;
      }
      const note = (ignore?.noteLine() ?? '') + notEnteredNote(notEntered);
      if (found.length === 0 && !stoppedBy) return `No matches found${note}`;
      const after = stoppedBy === 'time' ? last : lastShown;
      if (!stoppedBy || after === undefined) return found.join('\n') + note;
      const cursor = walkCursor('search_files', root, { after });
      const why =
        stoppedBy === 'time'
          ? `what ${slice.elapsedSeconds()} s of searching found`
          : `the first ${found.length} matches${stoppedBy === 'size' ? ' (as many as fit the answer)' : ''}`;
      return `${found.join('\n')}\n[truncated: showed ${why}. Call search_files with the same arguments and cursor="${cursor}" for more.]${note}`;
    },
  });
}
