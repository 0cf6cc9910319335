import { compileGlob, ToolError } from '@mcpkit/server-kit';

/**
 * Globs one list may hold. Every entry a walk meets is matched against each of them on the main thread: 100 of the
 * costliest globs (256 characters, 64 brace alternatives) take about 20 ms per entry, while 100,000 plain ones took
 * half a second to compile and a quarter of a second per entry.
 */
export const maxGlobs = 100;

/**
 * Matches walk entries against glob patterns: a pattern without a slash matches the entry's name at any depth (like
 * `find -name`), a pattern with a slash matches its path relative to the searched directory. Dotfiles match. Globs
 * compile with the kit's matcher, whose cost is bounded by pattern length times name length (no backtracking
 * regex), so any accepted pattern is safe; a too-long pattern, or more than {@link maxGlobs} of them, is refused with a
 * sentence.
 */
export function globMatcher(patterns: readonly string[]): (relative: string) => boolean {
  if (patterns.length > maxGlobs) {
    throw new ToolError(
      `The list has ${patterns.length.toLocaleString('en-US')} globs; pass at most ${maxGlobs} (braces join alternatives: "*.{ts,tsx}").`,
    );
  }
  const byName: Array<(name: string) => boolean> = [];
  const byPath: Array<(relative: string) => boolean> = [];
  for (const pattern of patterns) {
    if (pattern.trim() === '') continue;
    const cleaned = pattern.replace(/^\.\//, '');
    (cleaned.includes('/') ? byPath : byName).push(compileGlob(cleaned, { dot: true }));
  }
  return (relative) => {
    if (byName.length > 0) {
      const name = relative.slice(relative.lastIndexOf('/') + 1);
      if (byName.some((matches) => matches(name))) return true;
    }
    return byPath.some((matches) => matches(relative));
  };
}
