import picomatch from 'picomatch';

/**
 * Matches walk entries against glob patterns: a pattern without a slash matches the entry's name at any depth (like
 * `find -name`), a pattern with a slash matches its path relative to the searched directory. Dotfiles match.
 */
export function globMatcher(patterns: readonly string[]): (relative: string) => boolean {
  const matchers = patterns
    .filter((pattern) => pattern.trim() !== '')
    .map((pattern) => picomatch(pattern.replace(/^\.\//, ''), { dot: true, basename: !pattern.includes('/') }));
  return (relative) => matchers.some((matches) => matches(relative));
}
