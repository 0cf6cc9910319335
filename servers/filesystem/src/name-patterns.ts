import { ToolError } from '@mcpkit/server-kit';
import picomatch from 'picomatch';

/** Longest glob accepted. */
const maxPatternLength = 256;
/**
 * Most `*` in one path segment (a `**` segment aside). Globs compile to backtracking regular expressions whose cost
 * grows with the length of a name to the power of the stars in a segment: three keep the worst name under ~40 ms,
 * four already take seconds on a 255-character name, and the walk cannot interrupt a match in progress.
 */
const maxStarsPerSegment = 3;

/** Refuses a glob whose matching could stall the server, with a sentence that says how to write it instead. */
export function assertSafeGlob(pattern: string): void {
  if (pattern.length > maxPatternLength) {
    throw new ToolError(`The pattern is ${pattern.length} characters long; use at most ${maxPatternLength}.`);
  }
  for (const segment of pattern.split('/')) {
    if (segment === '**') continue;
    const stars = segment.split('*').length - 1;
    if (stars > maxStarsPerSegment) {
      throw new ToolError(
        `The pattern segment "${segment}" has ${stars} "*" wildcards; use at most ${maxStarsPerSegment} per segment (for example "*report*.pdf").`,
      );
    }
  }
}

/**
 * Matches walk entries against glob patterns: a pattern without a slash matches the entry's name at any depth (like
 * `find -name`), a pattern with a slash matches its path relative to the searched directory. Dotfiles match.
 */
export function globMatcher(patterns: readonly string[]): (relative: string) => boolean {
  const byName: Array<(name: string) => boolean> = [];
  const byPath: Array<(relative: string) => boolean> = [];
  for (const pattern of patterns) {
    if (pattern.trim() === '') continue;
    assertSafeGlob(pattern);
    const cleaned = pattern.replace(/^\.\//, '');
    (cleaned.includes('/') ? byPath : byName).push(picomatch(cleaned, { dot: true }));
  }
  return (relative) => {
    if (byName.length > 0) {
      // Taking the name here is much cheaper than picomatch's own basename option on every entry of a walk.
      const name = relative.slice(relative.lastIndexOf('/') + 1);
      if (byName.some((matches) => matches(name))) return true;
    }
    return byPath.some((matches) => matches(relative));
  };
}
