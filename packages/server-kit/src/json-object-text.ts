/** Any character below U+0020: JSON allows none inside strings, and line breaks would end a stdio message early. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what it looks for.
const controlCharacter = /[\u0000-\u001f]/;

/** Containers open at once before the text is refused (JSON.stringify of a tool result never comes near it). */
const deepestNesting = 512;

/** What the scanner expects next: a comma or the end of the open container (after a value), a value (after a colon,
 * or a comma in an array), a key (after a comma in an object), a value or `]` (just after `[`), a key or `}` (just
 * after `{`), the colon after a key. */
const Expect = { CommaOrEnd: 0, Value: 1, Key: 2, ValueOrEnd: 3, KeyOrEnd: 4, Colon: 5 } as const;
type Expect = (typeof Expect)[keyof typeof Expect];

/** Open containers: true for an object, false for an array. One array, reused (the scanner never awaits). */
const openObjects: boolean[] = [];

const isHexDigit = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);

/** The index after the string whose opening quote is at `start` when it has a backslash, or -1 when it is not JSON. */
function afterEscapedString(text: string, start: number): number {
  for (let index = start + 1; index < text.length; ) {
    const code = text.charCodeAt(index);
    if (code === 34) return index + 1;
    if (code !== 92) {
      index += 1;
      continue;
    }
    const escaped = text.charCodeAt(index + 1);
    if (escaped === 117) {
      for (let digit = 2; digit < 6; digit += 1) if (!isHexDigit(text.charCodeAt(index + digit))) return -1;
      index += 6;
    } else if (
      escaped === 34 ||
      escaped === 92 ||
      escaped === 47 ||
      escaped === 98 ||
      escaped === 102 ||
      escaped === 110 ||
      escaped === 114 ||
      escaped === 116
    ) {
      index += 2;
    } else return -1;
  }
  return -1;
}

function afterDigits(text: string, start: number): number {
  let index = start;
  for (let code = text.charCodeAt(index); code >= 48 && code <= 57; code = text.charCodeAt(index)) index += 1;
  return index === start ? -1 : index;
}

/** The index after the number that starts at `start`, or -1 when it is not a JSON number. */
function afterNumber(text: string, start: number): number {
  let index = start;
  if (text.charCodeAt(index) === 45) index += 1;
  if (text.charCodeAt(index) === 48) index += 1;
  else index = afterDigits(text, index);
  if (index < 0) return -1;
  if (text.charCodeAt(index) === 46) index = afterDigits(text, index + 1);
  if (index < 0) return -1;
  const exponent = text.charCodeAt(index);
  if (exponent === 101 || exponent === 69) {
    index += 1;
    const sign = text.charCodeAt(index);
    if (sign === 43 || sign === 45) index += 1;
    index = afterDigits(text, index);
  }
  return index;
}

/**
 * Whether `text` is exactly one JSON object, from its first character to its last, with no character below U+0020
 * anywhere (so no line break and no tab; spaces between tokens are allowed). It checks the whole grammar (strings and
 * their escapes, numbers, literals, commas, colons, nesting) without building anything, so that a text that passes
 * can be written into a JSON-RPC line as a value: nothing in it can end the line, close the surrounding object or
 * add a member beside it. `JSON.stringify` of an object always passes. About half the time of `JSON.parse`.
 */
export function isJsonObjectText(text: string): boolean {
  const length = text.length;
  if (length < 2 || text.charCodeAt(0) !== 123 || controlCharacter.test(text)) return false;
  let nextBackslash = text.indexOf('\\');
  if (nextBackslash === -1) nextBackslash = length;
  openObjects.length = 0;
  let expect = Expect.Value as Expect;
  let index = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === 32) {
      index += 1;
      continue;
    }
    if (code === 34) {
      if (expect === Expect.CommaOrEnd || expect === Expect.Colon) return false;
      // Without a backslash before the next quote, that quote closes the string.
      let end = text.indexOf('"', index + 1);
      if (end === -1) return false;
      if (nextBackslash < end) {
        end = afterEscapedString(text, index) - 1;
        if (end < 0) return false;
        nextBackslash = text.indexOf('\\', end + 1);
        if (nextBackslash === -1) nextBackslash = length;
      }
      index = end + 1;
      expect = expect === Expect.Key || expect === Expect.KeyOrEnd ? Expect.Colon : Expect.CommaOrEnd;
      continue;
    }
    const inObject = openObjects[openObjects.length - 1];
    if (expect === Expect.CommaOrEnd) {
      if (code === 44) {
        expect = inObject ? Expect.Key : Expect.Value;
        index += 1;
        continue;
      }
      if (code !== (inObject ? 125 : 93)) return false;
    } else if (expect === Expect.Colon) {
      if (code !== 58) return false;
      expect = Expect.Value;
      index += 1;
      continue;
    } else if (expect === Expect.Key) {
      return false;
    } else if (expect === Expect.KeyOrEnd) {
      if (code !== 125) return false;
    } else if (code === 123 || code === 91) {
      if (openObjects.length >= deepestNesting) return false;
      openObjects.push(code === 123);
      expect = code === 123 ? Expect.KeyOrEnd : Expect.ValueOrEnd;
      index += 1;
      continue;
    } else if (code !== 93 || expect !== Expect.ValueOrEnd) {
      if (code === 45 || (code >= 48 && code <= 57)) index = afterNumber(text, index);
      else if (code === 116 && text.startsWith('true', index)) index += 4;
      else if (code === 102 && text.startsWith('false', index)) index += 5;
      else if (code === 110 && text.startsWith('null', index)) index += 4;
      else return false;
      if (index < 0) return false;
      expect = Expect.CommaOrEnd;
      continue;
    }
    // The end of the open container.
    openObjects.pop();
    index += 1;
    if (openObjects.length === 0) return index === length;
    expect = Expect.CommaOrEnd;
  }
  return false;
}
