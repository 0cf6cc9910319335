import { describe, expect, it } from 'vitest';
import { isJsonObjectText } from './json-object-text.js';

/** What the scanner must agree with: JSON.parse gives an object, and no character below U+0020 is in the text. */
// (Spaces before the first brace or after the last are refused too: the kit never writes them.)
function reference(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what it looks for.
  if (/[\u0000-\u001f]/.test(text)) return false;
  try {
    const value: unknown = JSON.parse(text);
    return (
      typeof value === 'object' && value !== null && !Array.isArray(value) && text.startsWith('{') && text.endsWith('}')
    );
  } catch {
    return false;
  }
}

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pieces = ['a', '"', '\\', '\n', '\t', 'é', '😀', '\u2028', '}', ']', ',', ':', '{', '[', '0', '-', 'e', ' ', 'u'];

function value(next: () => number, depth: number): unknown {
  const kind = Math.floor(next() * (depth > 3 ? 5 : 7));
  if (kind === 0) return null;
  if (kind === 1) return next() < 0.5;
  if (kind === 2) return Math.floor(next() * 2e6) - 1e6;
  if (kind === 3) return (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
  if (kind === 4)
    return Array.from({ length: Math.floor(next() * 6) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
  if (kind === 5) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  const object: Record<string, unknown> = {};
  for (let index = Math.floor(next() * 4); index > 0; index -= 1)
    object[String(value(next, 4))] = value(next, depth + 1);
  return object;
}

describe('isJsonObjectText', () => {
  it('accepts JSON.stringify of any object', () => {
    const next = random(1);
    for (let round = 0; round < 500; round += 1) {
      const text = JSON.stringify({ value: value(next, 0) });
      expect(isJsonObjectText(text), text).toBe(true);
    }
  });

  it('agrees with JSON.parse on texts with one character changed, inserted or removed', () => {
    const next = random(2);
    for (let round = 0; round < 3000; round += 1) {
      const text = JSON.stringify({ value: value(next, 0) });
      const at = Math.floor(next() * text.length);
      const piece = pieces[Math.floor(next() * pieces.length)] as string;
      const how = Math.floor(next() * 3);
      const changed =
        how === 0
          ? text.slice(0, at) + piece + text.slice(at + 1)
          : how === 1
            ? text.slice(0, at) + piece + text.slice(at)
            : text.slice(0, at) + text.slice(at + 1);
      expect(isJsonObjectText(changed), JSON.stringify(changed)).toBe(reference(changed));
    }
  });

  it.each([
    ['{}', true],
    ['{"a": [1, -0.5e+3, true, false, null, {}, []], "b" : "\\u00e9\\n\\"\\\\\\/"}', true],
    ['{"a":1}{"b":2}', false],
    ['{"a":1},"isError":true,"x":{"y":1}', false],
    ['{"a":"\\\\"},"b":{"c":"d"}', false],
    ['{"a":"x"y"}', false],
    ['{"a":[}]}', false],
    ['{]', false],
    ['{"a":1,}', false],
    ['{"a":01}', false],
    ['{"a":1.}', false],
    ['{"a":.5}', false],
    ['{"a":+1}', false],
    ['{"a":tru}', false],
    ['{"a":"\\u12g4"}', false],
    ['{"a":"\\x"}', false],
    ['{"a" "b"}', false],
    [' {}', false],
    ['{} ', false],
    ['{"a":1}\n', false],
    ['{\n}', false],
    ['[1]', false],
    ['"{}"', false],
    ['{"a":"\u2028\u2029"}', true],
    [`${'{"a":['.repeat(600)}`, false],
  ])('%j: %s', (text, expected) => {
    expect(isJsonObjectText(text)).toBe(expected);
  });
});
