/**
 * Characters of a title at most: every hit and every listed resource shows it, and an HTML `<title>` of 140,000
 * characters took a whole search answer's budget from the other hits.
 */
export const maxTitleCharacters = 200;

/**
 * A title as it is stored and shown: at most `maxTitleCharacters` and an ellipsis, never a surrogate pair cut in two.
 * Titles are cut when a file's text is extracted, and again where they are shown: an index written before that cut
 * keeps its long titles for every file that has not changed since (unchanged files are not read again).
 */
export function shownTitle(title: string): string {
  if (title.length <= maxTitleCharacters) return title;
  const end = /[\uD800-\uDBFF]/.test(title.charAt(maxTitleCharacters - 1))
    ? maxTitleCharacters - 1
    : maxTitleCharacters;
  return `${title.slice(0, end)}…`;
}
