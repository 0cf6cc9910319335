/** A UTF-16 surrogate: half of a character above U+FFFF. */
const surrogate = /[\uD800-\uDFFF]/;

/** Where a code unit that differs first puts its string in code point order: surrogates after U+E000-U+FFFF. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/**
 * Compares two strings in code point order, the order of their UTF-8 bytes and so of SQLite's BINARY collation (what
 * the index's path column sorts by). JavaScript's `<` compares UTF-16 code units instead, which puts a character above
 * U+FFFF (a surrogate pair, such as an emoji) before one from U+E000 to U+FFFF (such as a full-width letter).
 */
export function compareCodePoints(first: string, second: string): number {
  if (!surrogate.test(first) && !surrogate.test(second)) return first < second ? -1 : first > second ? 1 : 0;
  const length = Math.min(first.length, second.length);
  for (let index = 0; index < length; index++) {
    const one = first.charCodeAt(index);
    const other = second.charCodeAt(index);
    if (one !== other) return codePointRank(one) - codePointRank(other);
  }
  return first.length - second.length;
}

/**
 * Sorts entries by their keys in code point order (`compareCodePoints`). Keys without a surrogate, nearly all of them,
 * are compared as JavaScript compares strings, which is the same order for them and cheaper.
 */
export function sortByCodePoints<Entry extends { key: string }>(entries: Entry[]): Entry[] {
  if (!entries.some((entry) => surrogate.test(entry.key))) {
    return entries.sort((first, second) => (first.key < second.key ? -1 : first.key > second.key ? 1 : 0));
  }
  return entries.sort((first, second) => compareCodePoints(first.key, second.key));
}
