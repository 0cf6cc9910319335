import { ToolError } from '../errors.js';
import { expandBraces } from './expand-braces.js';

/** Longest glob accepted, in characters. */
export const maxGlobLength = 256;

/** Options of {@link compileGlob}. */
export interface GlobOptions {
  /** Whether wildcards match names that start with a dot (a leading `.` written in the pattern always does). */
  dot?: boolean;
}

/** One character position of a segment pattern. */
type Token =
  | { kind: 'star' }
  | { kind: 'any' }
  | { kind: 'literal'; character: string }
  | { kind: 'class'; negated: boolean; ranges: Array<[string, string]> };

/** A path segment of a pattern: `**`, or characters to match one name. */
type Segment = { kind: 'globstar' } | { kind: 'name'; tokens: Token[]; literal: string | undefined };

/**
 * Compiles a glob into a matcher whose cost is bounded by the pattern's length times the path's length: no regular
 * expression, no backtracking beyond the last wildcard, so no pattern can stall a walk (picomatch and minimatch pass
 * regex groups through, which backtrack exponentially). Supported: `*`, `?`, `[abc]`, `[a-z]`, `[!x]`, `**` as a
 * whole segment, `{a,b}` and `{1..3}` (expanded, at most 64 alternatives), and backslash escapes; every other
 * character, parentheses included, is literal. Throws a {@link ToolError} for a pattern that is too long or expands
 * to too many alternatives.
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): (path: string) => boolean {
  assertGlob(pattern);
  const dot = options.dot ?? false;
  const plain = plainMatcher(pattern, dot);
  if (plain) return plain;
  const alternatives = expandBraces(pattern).map(parsePattern);
  if (alternatives.length === 1) {
    const only = alternatives[0] as Segment[];
    return (path) => matchSegments(only, path.split('/'), dot);
  }
  return (path) => {
    const names = path.split('/');
    return alternatives.some((segments) => matchSegments(segments, names, dot));
  };
}

/** Characters that make a glob more than plain text. */
const globSyntax = /[*?[\]{}\\]/;

/**
 * String comparisons for the two commonest patterns, several times faster per entry of a walk than the general
 * matcher: plain text, and `*suffix` (`*.ts`: no slash, no other wildcard). Undefined for every other pattern.
 */
function plainMatcher(pattern: string, dot: boolean): ((path: string) => boolean) | undefined {
  if (pattern.endsWith('/')) return undefined;
  if (!globSyntax.test(pattern)) return (path) => path === pattern;
  const suffix = pattern.slice(1);
  if (!pattern.startsWith('*') || suffix.includes('/') || globSyntax.test(suffix)) return undefined;
  return (path) => path.endsWith(suffix) && !path.includes('/') && (dot || !path.startsWith('.'));
}

/** Throws the {@link ToolError} that {@link compileGlob} would throw for this pattern, if any. */
export function assertGlob(pattern: string): void {
  if (pattern.length > maxGlobLength) {
    throw new ToolError(`The pattern is ${pattern.length} characters long; use at most ${maxGlobLength}.`);
  }
}

function parsePattern(pattern: string): Segment[] {
  const trimmed = pattern.length > 1 && pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
  return splitSegments(trimmed).map((text): Segment => {
    if (text === '**') return { kind: 'globstar' };
    const tokens = tokenize(text);
    const literal = tokens.every((token) => token.kind === 'literal')
      ? tokens.map((token) => (token.kind === 'literal' ? token.character : '')).join('')
      : undefined;
    return { kind: 'name', tokens, literal };
  });
}

/** Splits on `/` outside character classes (a class never matches `/`, but `[/]` must not split). */
function splitSegments(pattern: string): string[] {
  const segments: string[] = [];
  let start = 0;
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') index++;
    else if (character === '/') {
      segments.push(pattern.slice(start, index));
      start = index + 1;
    }
  }
  segments.push(pattern.slice(start));
  return segments;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string;
    if (character === '\\' && index + 1 < text.length) {
      tokens.push({ kind: 'literal', character: text[++index] as string });
    } else if (character === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (character === '?') {
      tokens.push({ kind: 'any' });
    } else if (character === '[') {
      const parsed = parseClass(text, index);
      if (parsed) {
        tokens.push(parsed.token);
        index = parsed.end;
      } else tokens.push({ kind: 'literal', character });
    } else {
      tokens.push({ kind: 'literal', character });
    }
  }
  return tokens;
}

/** Reads `[...]` starting at `open`; undefined when it never closes (then `[` is literal). */
function parseClass(text: string, open: number): { token: Token; end: number } | undefined {
  let index = open + 1;
  const negated = text[index] === '!' || text[index] === '^';
  if (negated) index++;
  const ranges: Array<[string, string]> = [];
  let first = true;
  while (index < text.length) {
    let character = text[index] as string;
    if (character === ']' && !first) return { token: { kind: 'class', negated, ranges }, end: index };
    first = false;
    if (character === '\\' && index + 1 < text.length) character = text[++index] as string;
    if (text[index + 1] === '-' && index + 2 < text.length && text[index + 2] !== ']') {
      let upper = text[index + 2] as string;
      index += 2;
      if (upper === '\\' && index + 1 < text.length) upper = text[++index] as string;
      ranges.push([character, upper]);
    } else {
      ranges.push([character, character]);
    }
    index++;
  }
  return undefined;
}

/**
 * Matches path names against pattern segments, `**` standing for any number of names. The classic wildcard
 * algorithm: on a mismatch only the last `**` is widened, which is enough because every other segment matches
 * exactly one name.
 */
function matchSegments(segments: readonly Segment[], names: readonly string[], dot: boolean): boolean {
  let segment = 0;
  let name = 0;
  let starSegment = -1;
  let starName = 0;
  while (name < names.length) {
    const current = segments[segment];
    if (current?.kind === 'globstar') {
      starSegment = segment++;
      starName = name;
      continue;
    }
    if (current && matchName(current, names[name] as string, dot)) {
      segment++;
      name++;
      continue;
    }
    if (starSegment === -1) return false;
    const swallowed = names[starName] as string;
    if (!dot && swallowed.startsWith('.')) return false;
    starName++;
    name = starName;
    segment = starSegment + 1;
  }
  while (segments[segment]?.kind === 'globstar') segment++;
  return segment === segments.length;
}

/** Matches one name against one segment's tokens, in at most (tokens x characters) steps. */
function matchName(segment: Segment & { kind: 'name' }, name: string, dot: boolean): boolean {
  if (segment.literal !== undefined) return segment.literal === name;
  const tokens = segment.tokens;
  if (!dot && name.startsWith('.') && !(tokens[0]?.kind === 'literal' && tokens[0].character === '.')) return false;
  let token = 0;
  let character = 0;
  let starToken = -1;
  let starCharacter = 0;
  while (character < name.length) {
    const current = tokens[token];
    if (current?.kind === 'star') {
      starToken = token++;
      starCharacter = character;
      continue;
    }
    if (current && matchesCharacter(current, name.charCodeAt(character))) {
      token++;
      character++;
      continue;
    }
    if (starToken === -1) return false;
    starCharacter++;
    character = starCharacter;
    token = starToken + 1;
  }
  while (tokens[token]?.kind === 'star') token++;
  return token === tokens.length;
}

function matchesCharacter(token: Token, code: number): boolean {
  switch (token.kind) {
    case 'any':
      return true;
    case 'literal':
      return token.character.charCodeAt(0) === code;
    case 'class': {
      let inside = false;
      for (const [lower, upper] of token.ranges) {
        if (code >= lower.charCodeAt(0) && code <= upper.charCodeAt(0)) {
          inside = true;
          break;
        }
      }
      return inside !== token.negated;
    }
    default:
      return false;
  }
}
