import type { ScanOutcome, SkipReason } from './file-scan.js';

const maxLineChars = 400;

function clip(line: string): string {
  return line.length > maxLineChars ? `${line.slice(0, maxLineChars)}…` : line;
}

/** Where a grep stopped early: after a file, or at a line inside it (0-based), and why. */
export interface GrepStop {
  after: string;
  line?: number;
  why: string;
}

/**
 * The text grep answers with, built file by file in walk order: each matching file's path once, then `N: line` for
 * matches and `N- line` for context, `--` between separate groups. Stops at the match cap or the character budget.
 */
export class GrepReport {
  private readonly out: string[] = [];
  private chars = 0;
  private matched = 0;
  private files = 0;
  private filesWithMatches = 0;
  private readonly skipped: Record<SkipReason, number> = { binary: 0, large: 0, unreadable: 0, 'hard-linked': 0 };
  /** Set when the report stopped before the end; what a cursor continues from. */
  stop: GrepStop | undefined;

  /**
   * `closing(relative, line)`: characters of the summary and cursor the answer would end with if it stopped at that
   * line of that file; a match is shown only when its lines and that closing fit the budget (the first of a page
   * always is, so paging moves).
   */
  constructor(
    private readonly limits: {
      cap: number;
      budget: number;
      contextLines: number;
      closing?: (relative: string, line: number) => number;
    },
  ) {}

  /** Adds one file's outcome, from line `firstLine` on; false when the cap or budget stopped the report. */
  add(file: { relative: string; path: string }, outcome: ScanOutcome, firstLine = 0): boolean {
    this.files++;
    if (outcome === null || 'deferred' in outcome) return true;
    if ('skipped' in outcome) {
      this.skipped[outcome.skipped]++;
      return true;
    }
    const matching = new Set(outcome.matches);
    const lines = outcome.text.split('\n');
    const lineAt = (index: number) => (lines[index] ?? '').replace(/\r$/, '');
    const lastLine = lines.length - (lines.at(-1) === '' ? 1 : 0);
    const { contextLines } = this.limits;
    let shownUpTo = 0;
    let header = false;
    for (let index = firstLine; index < lastLine; index++) {
      if (!matching.has(index)) continue;
      const line = lineAt(index);
      // The match's group: the file's path (first match), a separator, context before, the match, context after.
      const group: string[] = header ? [] : [file.path];
      const from = Math.max(index - contextLines, shownUpTo, firstLine);
      if (contextLines > 0 && shownUpTo > 0 && from > shownUpTo) group.push('--');
      for (let before = from; before < index; before++) group.push(`${before + 1}- ${clip(lineAt(before))}`);
      group.push(`${index + 1}: ${clip(line)}`);
      // Context after a match runs until the next match, which the loop then reports.
      let after = index + 1;
      const end = Math.min(lastLine, index + 1 + contextLines);
      for (; after < end && !matching.has(after); after++) group.push(`${after + 1}- ${clip(lineAt(after))}`);
      const groupChars = group.reduce((sum, text) => sum + text.length + 1, 0);
      const closing = this.limits.closing?.(file.relative, index) ?? 0;
      if (
        this.matched >= this.limits.cap ||
        (this.matched > 0 && this.chars + groupChars + closing > this.limits.budget)
      ) {
        this.stop = { after: file.relative, line: index, why: `the first ${this.matched} matching lines` };
        return false;
      }
      if (!header) {
        header = true;
        this.filesWithMatches++;
      }
      for (const text of group) this.emit(text);
      shownUpTo = after;
      index = after - 1;
      this.matched++;
    }
    return true;
  }

  /** The answer: the matches and a summary line; `cursor` makes the cursor of a stopped report. */
  text(cursor: (stop: GrepStop) => string): string {
    const notes: string[] = [];
    const skipped = Object.entries(this.skipped)
      .filter(([, count]) => count > 0)
      .map(([why, count]) => `${count} ${why}`)
      .join(', ');
    if (skipped) notes.push(`skipped files: ${skipped}`);
    if (this.matched === 0 && !this.stop) {
      return `No matches found (searched ${this.files} files${skipped ? `; ${notes.join('; ')}` : ''}).`;
    }
    if (this.stop) {
      notes.push(
        `truncated: showed ${this.stop.why}. Call grep with the same arguments and cursor="${cursor(this.stop)}" for more`,
      );
    }
    const summary = `[${this.matched} matching lines in ${this.filesWithMatches} files${notes.length ? `; ${notes.join('; ')}` : ''}]`;
    return `${this.out.join('\n')}\n${summary}`;
  }

  private emit(text: string): void {
    this.out.push(text);
    this.chars += text.length + 1;
  }
}
