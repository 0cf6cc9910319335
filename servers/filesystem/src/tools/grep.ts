import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import * as path from 'node:path';
import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import { contentMatcher } from '../content-search.js';
import type { ToolDependencies } from '../dependencies.js';
import { IgnoreRules } from '../ignore-rules.js';
import { globMatcher } from '../name-patterns.js';
import { TimeSlice } from '../time-slice.js';
import { walk } from '../walk.js';
import { readWalkCursor, walkCursor } from '../walk-cursor.js';

const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const maxLineChars = 400;

/** The bytes of a regular file reached through its parent's descriptor, or why it was skipped. */
function readFile(openPath: string, buffer: Buffer, maxBytes: number, refuseHardLinks: boolean) {
  let fd: number;
  try {
    fd = openSync(openPath, readFlags);
  } catch {
    return { skipped: 'unreadable' as const };
  }
  try {
    if (refuseHardLinks && fstatSync(fd).nlink > 1) return { skipped: 'hard-linked' as const };
    let length = readSync(fd, buffer, 0, buffer.length, 0);
    let bytes = buffer.subarray(0, length);
    if (length === buffer.length) {
      const size = fstatSync(fd).size;
      if (size > maxBytes) return { skipped: 'large' as const };
      const whole = Buffer.allocUnsafe(size);
      buffer.copy(whole, 0, 0, length);
      while (length < size) {
        const read = readSync(fd, whole, length, size - length, length);
        if (read === 0) break;
        length += read;
      }
      bytes = whole.subarray(0, length);
    }
    if (bytes.subarray(0, 8192).includes(0)) return { skipped: 'binary' as const };
    return { bytes };
  } catch {
    return { skipped: 'unreadable' as const };
  } finally {
    closeSync(fd);
  }
}

function clip(line: string): string {
  return line.length > maxLineChars ? `${line.slice(0, maxLineChars)}…` : line;
}

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
      const matcher = contentMatcher(args.pattern, args);
      const start = await scope.existing(args.path);
      const single = await scope.openFile(args.path).catch(() => undefined);
      if (single) {
        await single.handle.close();
      }
      const root = single ? path.dirname(start) : await scope.directory(args.path);
      const onlyName = single ? path.basename(start) : undefined;
      const position = readWalkCursor(args.cursor, 'grep', start);
      const included = args.include.length > 0 ? globMatcher(args.include) : () => true;
      const excluded = globMatcher(args.exclude);
      const cap = args.maxMatches ?? limits.grepMatches;
      const refuseHardLinks = dependencies.guard.options.hardLinks === 'refuse';
      const slice = new TimeSlice(context.signal, limits.walkTimeMs);
      const buffer = Buffer.allocUnsafe(256 * 1024);
      const out: string[] = [];
      let chars = 0;
      let matched = 0;
      let files = 0;
      let filesWithMatches = 0;
      const skipped = { binary: 0, large: 0, unreadable: 0, 'hard-linked': 0 };
      let stop: { after: string; line?: number; why: string } | undefined;
      let lastFile: string | undefined;
      const emit = (text: string) => {
        out.push(text);
        chars += text.length + 1;
      };

      for (const entry of walk({
        root,
        scope,
        ...(onlyName ? { maxDepth: 1 } : {}),
        ...(args.includeIgnored || onlyName ? {} : { ignore: IgnoreRules.forRoot(scope.directoryOf(root), root) }),
        exclude: (relative, name, isDirectory) =>
          onlyName ? name !== onlyName : excluded(relative) || (!isDirectory && !included(relative)),
        ...(position ? { after: position.after, includeAfter: position.line !== undefined } : {}),
      })) {
        if (!(await slice.tick())) {
          if (lastFile !== undefined)
            stop = { after: lastFile, why: `what ${slice.elapsedSeconds()} s of searching found` };
          break;
        }
        if (entry.kind !== 'file') continue;
        files++;
        const read = readFile(entry.openPath, buffer, limits.grepFileBytes, refuseHardLinks);
        if (read.skipped) {
          skipped[read.skipped]++;
          lastFile = entry.relative;
          continue;
        }
        if (!matcher.mayMatch(read.bytes)) {
          lastFile = entry.relative;
          continue;
        }
        const lines = read.bytes.toString('utf8').split('\n');
        const firstLine = position && position.after === entry.relative ? (position.line ?? 0) : 0;
        let shownUpTo = 0;
        let header = false;
        for (let index = firstLine; index < lines.length; index++) {
          const line = (lines[index] ?? '').replace(/\r$/, '');
          if (!matcher.matchesLine(line)) continue;
          if (matched >= cap || chars > limits.readBudget) {
            stop = { after: entry.relative, line: index, why: `the first ${matched} matching lines` };
            break;
          }
          if (!header) {
            emit(entry.path);
            header = true;
            filesWithMatches++;
          }
          const from = Math.max(index - args.contextLines, shownUpTo, firstLine);
          if (shownUpTo > 0 && from > shownUpTo) emit('--');
          for (let before = from; before < index; before++) {
            emit(`${before + 1}- ${clip((lines[before] ?? '').replace(/\r$/, ''))}`);
          }
          emit(`${index + 1}: ${clip(line)}`);
          let after = index + 1;
          const end = Math.min(lines.length - (lines.at(-1) === '' ? 1 : 0), index + 1 + args.contextLines);
          for (; after < end && !matcher.matchesLine((lines[after] ?? '').replace(/\r$/, '')); after++) {
            emit(`${after + 1}- ${clip((lines[after] ?? '').replace(/\r$/, ''))}`);
          }
          shownUpTo = after;
          index = after - 1;
          matched++;
        }
        if (stop) break;
        lastFile = entry.relative;
      }

      const notes: string[] = [];
      const skippedText = Object.entries(skipped)
        .filter(([, count]) => count > 0)
        .map(([why, count]) => `${count} ${why}`)
        .join(', ');
      if (skippedText) notes.push(`skipped files: ${skippedText}`);
      if (matched === 0 && !stop) {
        return `No matches found (searched ${files} files${skippedText ? `; ${notes.join('; ')}` : ''}).`;
      }
      if (stop) {
        const resume = stop.line !== undefined ? { after: stop.after, line: stop.line } : { after: stop.after };
        const cursor = walkCursor('grep', start, resume);
        notes.push(`truncated: showed ${stop.why}. Call grep with the same arguments and cursor="${cursor}" for more`);
      }
      const summary = `[${matched} matching lines in ${filesWithMatches} files${notes.length ? `; ${notes.join('; ')}` : ''}]`;
      return `${out.join('\n')}\n${summary}`;
    },
  });
}
