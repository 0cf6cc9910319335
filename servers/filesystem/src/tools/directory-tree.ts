import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { walking } from '../loaded-on-first-use.js';
import type { EntryKind } from '../walking/walk.js';

interface TreeNode {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  children?: TreeNode[];
}

const compactSuffix: Record<EntryKind, string> = { file: '', directory: '/', symlink: '@', other: '|' };

/** Characters one node takes in the JSON answer at most: `{"name":…,"type":"directory","children":[]},`. */
function jsonEntryChars(name: string): number {
  return JSON.stringify(name).length + 43;
}

/** directory_tree: the tree under a directory as JSON (the official shape) or compact indented lines, in pages. */
export function directoryTree(dependencies: ToolDependencies) {
  return defineTool({
    name: 'directory_tree',
    title: 'Directory Tree',
    description:
      'Get the tree of files and directories under a path, as JSON ({name, type, children}) or, with ' +
      'format "compact", as indented lines (directories end in "/", links in "@"). Limit the depth with maxDepth ' +
      '(directories at that depth have no children array). ' +
      'Skips .gitignore-d entries, .git and node_modules unless includeIgnored is set. Large trees come in pages: ' +
      'pass the cursor from the note to continue.',
    input: z.object({
      path: z.string().describe('Directory path, absolute or relative to the first allowed directory'),
      excludePatterns: z.array(z.string()).optional().default([]).describe('Globs of entries to leave out'),
      maxDepth: z.number().int().positive().optional().describe('Deepest level shown (1: only direct children)'),
      format: z.enum(['json', 'compact']).optional().default('json').describe('JSON or compact indented lines'),
      includeIgnored: z
        .boolean()
        .optional()
        .default(false)
        .describe('Also show .gitignore-d entries, .git, node_modules'),
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
      const position = readWalkCursor(args.cursor, 'directory_tree', root);
      const excluded = globMatcher(args.excludePatterns);
      const { treeEntries, readBudget } = dependencies.limits;
      const slice = new TimeSlice(context.signal, dependencies.limits.walkTimeMs);
      const ignore = args.includeIgnored ? undefined : IgnoreRules.forRoot(scope.directoryOf(root), root);
      const notEntered = { directories: 0, unopened: 0 };
      const top: TreeNode[] = [];
      const stack: TreeNode[][] = [top];
      const lines: string[] = [];
      let count = 0;
      let chars = 0;
      let last: string | undefined;
      let stoppedBy: 'size' | 'time' | undefined;
      for (const entry of walk({
        root,
        scope,
        notEntered,
        ...(args.maxDepth ? { maxDepth: args.maxDepth } : {}),
        ...(ignore ? { ignore } : {}),
        exclude: (relative) => excluded(relative),
        ...(position ? { after: position.after } : {}),
      })) {
        if (!(await slice.tick())) {
          stoppedBy = 'time';
          break;
        }
        if (typeof entry === 'symbol') continue; // the walk's pause, its only symbol
        // A continued page starts below directories shown before: its first JSON entry repeats their ancestors.
        const ancestors =
          args.format === 'json' && count === 0 && entry.depth > 1 ? entry.relative.split('/').slice(0, -1) : [];
        // What the entry adds to the answer as written (JSON escapes a control character in six), plus the note and
        // cursor the answer would end with if it stopped after this entry: a page never outgrows the budget.
        const cost =
          args.format === 'compact'
            ? entry.name.length + entry.depth * 2 + 2
            : ancestors.reduce((sum, name) => sum + jsonEntryChars(name), jsonEntryChars(entry.name));
        const closing = walkCursorLength('directory_tree', root, { after: entry.relative }) + 500;
        if (count >= treeEntries || (count > 0 && chars + cost + closing > readBudget)) {
          stoppedBy = 'size';
          break;
        }
        count++;
        chars += cost;
        last = entry.relative;
        if (args.format === 'compact') {
          lines.push(`${'  '.repeat(entry.depth - 1)}${entry.name}${compactSuffix[entry.kind]}`);
          continue;
        }
        if (ancestors.length > 0) {
          for (const name of ancestors) {
            const ancestor: TreeNode = { name, type: 'directory', children: [] };
            stack.at(-1)?.push(ancestor);
            stack.push(ancestor.children ?? []);
          }
        }
        stack.length = Math.min(stack.length, entry.depth);
        const node: TreeNode = { name: entry.name, type: entry.kind };
        stack.at(-1)?.push(node);
        // A directory at maxDepth has no children array: its content was not read, it is not known to be empty.
        if (entry.kind === 'directory' && entry.depth < (args.maxDepth ?? Number.POSITIVE_INFINITY)) {
          node.children = [];
          stack.push(node.children);
        }
      }
      const body = args.format === 'compact' ? lines.join('\n') : JSON.stringify(top);
      const note = (ignore?.noteLine() ?? '') + notEnteredNote(notEntered);
      if (!stoppedBy || last === undefined) return body + note;
      const cursor = walkCursor('directory_tree', root, { after: last });
      const why =
        stoppedBy === 'size' ? `the first ${count} entries` : `the entries found in ${slice.elapsedSeconds()} s`;
      return `${body}\n[truncated: showed ${why}. Call directory_tree with the same arguments and cursor="${cursor}" for the rest, or narrow it with maxDepth or excludePatterns.]${note}`;
    },
  });
}
