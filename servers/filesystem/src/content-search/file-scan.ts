import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { descriptorPaths, isInside } from '../confinement/containment.js';
import { type ContentMatcher, contentMatcher } from './content-search.js';

/** A run of files for grep to read, in walk order. */
export interface ScanJob {
  /** `fromLine`: the 0-based line a file's matches start at (where a cursor resumes inside it). */
  files: Array<{ directory: string; name: string; fromLine?: number }>;
}

/** What grep needs to know to read and match files; plain data, so it can cross to a worker thread. */
export interface ScanSettings {
  pattern: string;
  literal: boolean;
  ignoreCase: boolean;
  /** Files larger than this are skipped. */
  maxBytes: number;
  refuseHardLinks: boolean;
  /** Real paths of the allowed directories: every directory read from must be inside one. */
  directories: readonly string[];
  /**
   * Matching lines one page shows at most: a file returns one more than this (where the page stops) and its text up
   * to that line's context, never every match of a file that matches on millions of lines.
   */
  maxMatches?: number;
  /** Lines of context the page shows around a match. */
  contextLines?: number;
}

/** Why a file was not searched. */
export type SkipReason = 'binary' | 'large' | 'unreadable' | 'hard-linked';

/**
 * The outcome for one file of a job: its text and the 0-based numbers of its matching lines when it matches, why it
 * was skipped, nothing (no match), or `deferred` when the job's text budget was spent and the file must be scanned
 * again on its own.
 */
export type ScanOutcome = { text: string; matches: number[] } | { skipped: SkipReason } | { deferred: true } | null;

/** Characters of matching text one job returns at most; keeps a grep's memory bounded with many jobs in flight. */
const jobTextBudget = 4 * 1024 * 1024;

const fileFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Reads and matches a run of files, synchronously, for grep (in a worker: the whole regular expression work happens
 * there, never on the main thread). Each parent
 * directory is opened without following links and checked by descriptor, and its files are opened through that
 * descriptor, so nothing outside the roots is read even if a directory is swapped for a link meanwhile.
 */
export class FileScanner {
  private readonly buffer = Buffer.allocUnsafe(256 * 1024);
  private readonly matcher: ContentMatcher;
  private readonly settings: ScanSettings;

  constructor(settings: ScanSettings) {
    this.settings = settings;
    this.matcher = contentMatcher(settings.pattern, settings);
  }

  /** One outcome per file of the job, in order. */
  scan(job: ScanJob): ScanOutcome[] {
    const outcomes: ScanOutcome[] = [];
    let textBudget = jobTextBudget;
    let openDirectory: { path: string; fd: number | undefined; via: string | undefined } | undefined;
    try {
      for (const file of job.files) {
        if (openDirectory?.path !== file.directory) {
          if (openDirectory?.fd !== undefined) closeSync(openDirectory.fd);
          openDirectory = this.openDirectory(file.directory);
        }
        if (openDirectory.via === undefined) {
          outcomes.push({ skipped: 'unreadable' });
          continue;
        }
        // A file alone in its job is always returned whole (up to maxBytes): that is how deferred files are read.
        const outcome = this.scanFile(`${openDirectory.via}/${file.name}`, file.fromLine ?? 0);
        if (outcome && 'text' in outcome && job.files.length > 1) {
          if (outcome.text.length > textBudget) {
            outcomes.push({ deferred: true });
            textBudget = 0;
            continue;
          }
          textBudget -= outcome.text.length;
        }
        outcomes.push(outcome);
      }
    } finally {
      if (openDirectory?.fd !== undefined) closeSync(openDirectory.fd);
    }
    return outcomes;
  }

  /**
   * The 0-based numbers of the matching lines from `fromLine` on, at most `maxMatches + 1` of them, and where the text
   * a page needs ends: after the last of them and its context lines.
   */
  private matchingLines(text: string, fromLine: number): { matches: number[]; needed: number } {
    const matches: number[] = [];
    const most = this.settings.maxMatches === undefined ? Number.POSITIVE_INFINITY : this.settings.maxMatches + 1;
    let lastNeeded = Number.POSITIVE_INFINITY;
    let start = 0;
    for (let line = 0; start < text.length && line <= lastNeeded; line++) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (line >= fromLine && matches.length < most) {
        const content = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
        if (this.matcher.matchesLine(content)) {
          matches.push(line);
          if (matches.length === most) lastNeeded = line + (this.settings.contextLines ?? 0);
        }
      }
      start = end + 1;
    }
    return { matches, needed: Math.min(start, text.length) };
  }

  private openDirectory(path: string): { path: string; fd: number | undefined; via: string | undefined } {
    if (!descriptorPaths) return { path, fd: undefined, via: path };
    let fd: number;
    try {
      fd = openSync(path, directoryFlags);
    } catch {
      return { path, fd: undefined, via: undefined };
    }
    let real: string;
    try {
      real = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return { path, fd, via: undefined };
    }
    // The directory must still be where the walk saw it, and inside the roots.
    if (real !== path || !this.settings.directories.some((directory) => isInside(directory, real))) {
      return { path, fd, via: undefined };
    }
    return { path, fd, via: `/proc/self/fd/${fd}` };
  }

  private scanFile(openPath: string, fromLine: number): ScanOutcome {
    let fd: number;
    try {
      fd = openSync(openPath, fileFlags);
    } catch {
      return { skipped: 'unreadable' };
    }
    try {
      if (this.settings.refuseHardLinks && fstatSync(fd).nlink > 1) return { skipped: 'hard-linked' };
      const { buffer } = this;
      let length = readSync(fd, buffer, 0, buffer.length, 0);
      let bytes = buffer.subarray(0, length);
      if (length === buffer.length) {
        const stats = fstatSync(fd);
        if (!stats.isFile()) return { skipped: 'unreadable' };
        if (stats.size > this.settings.maxBytes) return { skipped: 'large' };
        const whole = Buffer.allocUnsafe(stats.size);
        buffer.copy(whole, 0, 0, length);
        while (length < stats.size) {
          const read = readSync(fd, whole, length, stats.size - length, length);
          if (read === 0) break;
          length += read;
        }
        bytes = whole.subarray(0, length);
      }
      if (bytes.subarray(0, 8192).includes(0)) return { skipped: 'binary' };
      if (!this.matcher.mayMatch(bytes)) return null;
      const text = bytes.toString('utf8');
      const { matches, needed } = this.matchingLines(text, fromLine);
      return matches.length > 0 ? { text: text.slice(0, needed), matches } : null;
    } catch {
      return { skipped: 'unreadable' };
    } finally {
      closeSync(fd);
    }
  }
}
