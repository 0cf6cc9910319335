import * as path from 'node:path';
import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ScanOutcome, ScanSettings } from '../content-search/file-scan.js';
import type { ScanTaskInput } from '../content-search/file-scan-task.js';
import type { ToolDependencies } from '../dependencies.js';
import { contentSearch, walking } from '../loaded-on-first-use.js';

/** Files per job handed to a reader; small enough to stop soon after the cap, large enough to amortise messages. */
const jobSize = 128;
/** Jobs queued or running at once: enough to keep every worker busy while the main thread walks. */
const jobsInFlight = 8;
/** How long jobs still running after grep answered (it stopped at the cap) may finish before they are stopped. */
const leftoverGraceMs = 1_000;

/** Reading and matching run in the server's workers: a regular expression never runs on the main thread. */
const scanTask = { module: new URL('../content-search/file-scan-task.js', import.meta.url), name: 'scanFiles' };

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
      // Loaded on the first grep, not at start: the regular expression engine is the largest module the server has.
      const { contentMatcher, GrepReport, InvalidPatternError } = await contentSearch();
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
      const { limits } = dependencies;
      try {
        // Compiled here only to refuse a bad or too large pattern at once; the workers compile their own.
        contentMatcher(args.pattern, args);
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
        maxMatches: cap,
        contextLines: args.contextLines,
      };
      /** The 0-based line a file's matches start at: where the cursor stopped inside it, else its start. */
      const firstLineOf = (relative: string) => (position?.after === relative ? (position.line ?? 0) : 0);
      const deadline = performance.now() + limits.walkTimeMs;
      // Stops this grep's jobs: at once on cancel, or shortly after the answer for jobs no longer needed.
      const stopJobs = new AbortController();
      const onAbort = () => stopJobs.abort();
      context.signal.addEventListener('abort', onAbort, { once: true });
      const scan = (files: Array<{ directory: string; name: string; fromLine: number }>): Promise<ScanOutcome[]> =>
        dependencies.workers.run<ScanOutcome[]>(scanTask, { settings, job: { files } } satisfies ScanTaskInput, {
          signal: stopJobs.signal,
          timeoutMs: Math.max(1_000, deadline - performance.now()),
          label: 'the search',
        });
      const slice = new TimeSlice(context.signal, limits.walkTimeMs);
      const report = new GrepReport({
        cap,
        budget: limits.readBudget,
        contextLines: args.contextLines,
        // The summary line and the cursor a page stopped at this line would end with.
        closing: (after, line) => walkCursorLength('grep', start, { after, line }) + 500,
      });
      let lastFile: string | undefined;

      type Batch = { entries: Array<{ relative: string; path: string }>; outcomes: Promise<ScanOutcome[]> };
      const queue: Batch[] = [];
      /** Takes the oldest batch's outcomes, in walk order; false when the grep must stop. */
      const consume = async (): Promise<boolean> => {
        const batch = queue.shift();
        if (!batch) return true;
        const outcomes = await batch.outcomes;
        for (const [index, entry] of batch.entries.entries()) {
          const firstLine = firstLineOf(entry.relative);
          let outcome = outcomes[index] ?? null;
          if (outcome && 'deferred' in outcome) {
            const file = { directory: path.dirname(entry.path), name: path.basename(entry.path), fromLine: firstLine };
            [outcome = null] = await scan([file]);
          }
          if (!report.add(entry, outcome, firstLine)) return false;
          lastFile = entry.relative;
        }
        return true;
      };
      let pendingEntries: Array<{ relative: string; path: string }> = [];
      let pendingJob: Array<{ directory: string; name: string; fromLine: number }> = [];
      const dispatch = () => {
        if (pendingEntries.length === 0) return;
        queue.push({ entries: pendingEntries, outcomes: scan(pendingJob) });
        pendingEntries = [];
        pendingJob = [];
      };
      const ignore = args.includeIgnored || onlyName ? undefined : IgnoreRules.forRoot(scope.directoryOf(root), root);
      const notEntered = { directories: 0, unopened: 0 };
      let running = true;
      const stopForTime = () => {
        running = false;
        // With nothing reported yet the cursor starts over (after ''), which is still correct.
        report.stop = { after: lastFile ?? '', why: `what ${slice.elapsedSeconds()} s of searching found` };
      };
      try {
        for (const entry of walk({
          root,
          scope,
          notEntered,
          ...(onlyName ? { maxDepth: 1 } : {}),
          ...(ignore ? { ignore } : {}),
          exclude: (relative, name, isDirectory) =>
            onlyName ? name !== onlyName : excluded(relative) || (!isDirectory && !included(relative)),
          ...(position ? { after: position.after, includeAfter: position.line !== undefined } : {}),
        })) {
          if (typeof entry === 'symbol') {
            // The walk's pause (its only symbol): a moment to share the loop and check the time.
            if (await slice.tick()) continue;
            stopForTime();
            break;
          }
          if (entry.kind !== 'file') continue;
          pendingEntries.push(entry);
          pendingJob.push({
            directory: path.dirname(entry.path),
            name: entry.name,
            fromLine: firstLineOf(entry.relative),
          });
          if (pendingEntries.length < jobSize) continue;
          dispatch();
          while (queue.length >= jobsInFlight) {
            if (!(await consume())) {
              running = false;
              break;
            }
          }
          if (!running) break;
          if (!(await slice.tick())) {
            stopForTime();
            break;
          }
        }
        if (running) {
          dispatch();
          while (queue.length > 0 && (await consume()));
        }
      } finally {
        context.signal.removeEventListener('abort', onAbort);
        // Batches still in flight after a stop are dropped; the cursor resumes after the last file reported.
        const leftovers = queue.splice(0).map((batch) => batch.outcomes.catch(() => {}));
        if (leftovers.length > 0) {
          const timer = setTimeout(() => stopJobs.abort(), leftoverGraceMs).unref();
          void Promise.all(leftovers).then(() => clearTimeout(timer));
        }
      }

      const answer = report.text((stop) =>
        walkCursor(
          'grep',
          start,
          stop.line !== undefined ? { after: stop.after, line: stop.line } : { after: stop.after },
        ),
      );
      return answer + (ignore?.noteLine() ?? '') + notEnteredNote(notEntered);
    },
  });
}
