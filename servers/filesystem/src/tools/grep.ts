import * as path from 'node:path';
import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import { contentMatcher, InvalidPatternError } from '../content-search.js';
import type { ToolDependencies } from '../dependencies.js';
import { FileScanner, type ScanOutcome, type ScanSettings } from '../file-scan.js';
import { GrepReport } from '../grep-report.js';
import { IgnoreRules } from '../ignore-rules.js';
import { globMatcher } from '../name-patterns.js';
import { TimeSlice } from '../time-slice.js';
import { walk } from '../walk.js';
import { readWalkCursor, walkCursor } from '../walk-cursor.js';

/** Files per job handed to a reader; small enough to stop soon after the cap, large enough to amortise messages. */
const jobSize = 128;

/** grep: searches file contents for a regular expression or literal, with globs, context lines and pages. */
export function grep(dependencies: ToolDependencies) {
  return defineTool({
    name: 'grep',
    title: 'Search File Contents',
    description:
      'Search the contents of text files under a path for a regular expression (RE2 syntax, like ripgrep) or a ' +
      'literal string. Prints each matching file once, then "line: text" for matches and "line- text" for context. ' +
      'Filter files with include/exclude globs. Skips binary files, .gitignore-d files, .git and node_modules ' +
      'unless includeIgnored is set. Results come in pages: pass the cursor from the note to continue.',
    input: z.object({
      pattern: z.string().min(1).describe('Regular expression (RE2 syntax), or literal text with literal: true'),
      path: z.string().optional().default('.').describe('Directory or file to search; default the first allowed one'),
      literal: z.boolean().optional().default(false).describe('Treat the pattern as plain text'),
      ignoreCase: z.boolean().optional().default(false).describe('Match without regard to case'),
      include: z.array(z.string()).optional().default([]).describe('Only files matching one of these globs ("*.ts")'),
      exclude: z.array(z.string()).optional().default([]).describe('Skip files and directories matching these globs'),
      contextLines: z.number().int().min(0).max(20).optional().default(0).describe('Lines of context around matches'),
      includeIgnored: z
        .boolean()
        .optional()
        .default(false)
        .describe('Also search .gitignore-d files, .git, node_modules'),
      maxMatches: z.number().int().positive().max(5_000).optional().describe('Matching lines per page'),
      cursor: z.string().optional().describe('The cursor from a previous page'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler(args, context) {
      const scope = await dependencies.guard.scope(context);
      const { limits } = dependencies;
      let matcher: ReturnType<typeof contentMatcher>;
      try {
        matcher = contentMatcher(args.pattern, args);
      } catch (error) {
        if (error instanceof InvalidPatternError) throw new ToolError(error.message);
        throw error;
      }
      const start = await scope.existing(args.path);
      const single = await scope.openFile(args.path).catch(() => undefined);
      if (single) await single.handle.close();
      const root = single ? path.dirname(start) : await scope.directory(args.path);
      const onlyName = single ? path.basename(start) : undefined;
      const position = readWalkCursor(args.cursor, 'grep', start);
      const included = args.include.length > 0 ? globMatcher(args.include) : () => true;
      const excluded = globMatcher(args.exclude);
      const cap = args.maxMatches ?? limits.grepMatches;
      const settings: ScanSettings = {
        pattern: args.pattern,
        literal: args.literal,
        ignoreCase: args.ignoreCase,
        maxBytes: limits.grepFileBytes,
        refuseHardLinks: dependencies.guard.options.hardLinks === 'refuse',
        directories: scope.directories,
      };
      const pool = dependencies.scanPool?.();
      let inline: FileScanner | undefined;
      const scan = (job: Array<{ directory: string; name: string }>): Promise<ScanOutcome[]> => {
        const scanInline = () => {
          inline ??= new FileScanner(settings);
          return inline.scan({ files: job });
        };
        return pool ? pool.scan(settings, { files: job }).catch(scanInline) : Promise.resolve(scanInline());
      };
      const slice = new TimeSlice(context.signal, limits.walkTimeMs);
      const report = new GrepReport(matcher, { cap, budget: limits.readBudget, contextLines: args.contextLines });
      let lastFile: string | undefined;

      type Batch = { entries: Array<{ relative: string; path: string }>; outcomes: Promise<ScanOutcome[]> };
      const queue: Batch[] = [];
      /** Takes the oldest batch's outcomes, in walk order; false when the grep must stop. */
      const consume = async (): Promise<boolean> => {
        const batch = queue.shift();
        if (!batch) return true;
        const outcomes = await batch.outcomes;
        for (const [index, entry] of batch.entries.entries()) {
          const firstLine = position?.after === entry.relative ? (position.line ?? 0) : 0;
          let outcome = outcomes[index] ?? null;
          if (outcome && 'deferred' in outcome) {
            [outcome = null] = await scan([{ directory: path.dirname(entry.path), name: path.basename(entry.path) }]);
          }
          if (!report.add(entry, outcome, firstLine)) return false;
          lastFile = entry.relative;
        }
        return true;
      };
      let pendingEntries: Array<{ relative: string; path: string }> = [];
      let pendingJob: Array<{ directory: string; name: string }> = [];
      const dispatch = () => {
        if (pendingEntries.length === 0) return;
        queue.push({ entries: pendingEntries, outcomes: scan(pendingJob) });
        pendingEntries = [];
        pendingJob = [];
      };
      const inFlight = pool ? 8 : 1;

      let running = true;
      for (const entry of walk({
        root,
        scope,
        ...(onlyName ? { maxDepth: 1 } : {}),
        ...(args.includeIgnored || onlyName ? {} : { ignore: IgnoreRules.forRoot(scope.directoryOf(root), root) }),
        exclude: (relative, name, isDirectory) =>
          onlyName ? name !== onlyName : excluded(relative) || (!isDirectory && !included(relative)),
        ...(position ? { after: position.after, includeAfter: position.line !== undefined } : {}),
      })) {
        if (entry.kind !== 'file') continue;
        pendingEntries.push(entry);
        pendingJob.push({ directory: path.dirname(entry.path), name: entry.name });
        if (pendingEntries.length < jobSize) continue;
        dispatch();
        while (queue.length >= inFlight) {
          if (!(await consume())) {
            running = false;
            break;
          }
        }
        if (!running) break;
        if (!(await slice.tick())) {
          running = false;
          // With nothing reported yet the cursor starts over (after ''), which is still correct.
          report.stop = { after: lastFile ?? '', why: `what ${slice.elapsedSeconds()} s of searching found` };
          break;
        }
      }
      if (running) {
        dispatch();
        while (queue.length > 0 && (await consume()));
      }
      // Batches still in flight after a stop are dropped; the cursor resumes after the last file reported.
      for (const batch of queue.splice(0)) batch.outcomes.catch(() => {});

      return report.text((stop) =>
        walkCursor(
          'grep',
          start,
          stop.line !== undefined ? { after: stop.after, line: stop.line } : { after: stop.after },
        ),
      );
    },
  });
}
