import { assertGlob, compileGlob } from '@mcpkit/server-kit';

/** Characters that make a glob more than plain text. */
const globSyntax = /[*?[\]{}\\]/;

/**
 * The matcher of one pattern: plain text and `*suffix` (the common `*.ts`) compare strings directly, several times
 * faster per entry of a walk than the general matcher; everything else uses the kit's compileGlob.
 */
function compile(pattern: string): (subject: string) => boolean {
  assertGlob(pattern);
  if (!globSyntax.test(pattern)) return (subject) => subject === pattern;
  const suffix = pattern.slice(1);
  // Only a name pattern (no slash) gets here with a `*` first, so the subject is one name.
  if (pattern.startsWith('*') && !suffix.includes('/') && !globSyntax.test(suffix)) {
    return (subject) => subject.endsWith(suffix);
  }
  return compileGlob(pattern, { dot: true });
}

/**
 * Matches walk entries against glob patterns: a pattern without a slash matches the entry's name at any depth (like
 * `find -name`), a pattern with a slash matches its path relative to the searched directory. Dotfiles match. Globs
 * compile with the kit's matcher, whose cost is bounded by pattern length times name length (no backtracking
 * regex), so any accepted pattern is safe; a too-long pattern is refused with a sentence.
 */
export function globMatcher(patterns: readonly string[]): (relative: string) => boolean {
  const byName: Array<(name: string) => boolean> = [];
  const byPath: Array<(relative: string) => boolean> = [];
  for (const pattern of patterns) {
    if (pattern.trim() === '') continue;
    const cleaned = pattern.replace(/^\.\//, '');
    (cleaned.includes('/') ? byPath : byName).push(compile(cleaned));
  }
  return (relative) => {
    if (byName.length > 0) {
      const name = relative.slice(relative.lastIndexOf('/') + 1);
      if (byName.some((matches) => matches(name))) return true;
    }
    return byPath.some((matches) => matches(relative));
  };
}
