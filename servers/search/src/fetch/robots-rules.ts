/** Allow and Disallow rules kept for our user agent; a robots.txt with more is cut (the rest is not applied). */
export const maxRobotsRules = 1000;
/** Longer patterns are dropped: no real rule is this long. */
export const maxRobotsPatternLength = 512;
/** Patterns with more `*`s are dropped: real ones have a few, and each costs a scan of the URL. */
export const maxRobotsWildcards = 16;
/** A URL's path and query are matched on at most this many characters. */
export const maxMatchedPathLength = 2048;

/** One Allow or Disallow line, its pattern split at its `*` wildcards. */
interface RobotsRule {
  allow: boolean;
  /** The pattern's length, which decides precedence (the longest match wins, Allow on a tie). */
  length: number;
  /** The literal pieces between `*`s; the first is a prefix of the path. */
  pieces: string[];
  /** True when the pattern ended with `$`: the last piece must end the path. */
  anchored: boolean;
}

/** The rules of a robots.txt that apply to one user agent. */
export interface RobotsRules {
  /** Whether the path and query of a URL (`/a/b?c`) may be fetched. */
  allows(pathAndQuery: string): boolean;
}

/** Percent-encodes what a browser would and upper-cases escapes, so `/a%2fb`, `/a%2Fb` and `/ä` compare alike. */
function normalise(path: string): string {
  let encoded: string;
  try {
    encoded = encodeURI(path).replace(/%25([0-9a-fA-F]{2})/g, '%$1');
  } catch {
    encoded = path; // a lone surrogate: compare as written
  }
  return encoded.replace(/%[0-9a-f]{2}/gi, (sequence) => sequence.toUpperCase());
}

function compile(pattern: string, allow: boolean): RobotsRule {
  const anchored = pattern.endsWith('$');
  const body = normalise(anchored ? pattern.slice(0, -1) : pattern);
  return { allow, length: pattern.length, pieces: body.split('*'), anchored };
}

/**
 * Whether a rule matches a path: the first piece as a prefix, each later piece found leftmost after the previous one
 * (greedy leftmost is exact for `*`-only patterns), the last at the very end when anchored. Each piece is one
 * `indexOf`, so a rule costs about the path's length, never pattern length times path length.
 */
function matches(rule: RobotsRule, path: string): boolean {
  const { pieces, anchored } = rule;
  const first = pieces[0] as string;
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let position = first.length;
  const lastIndex = pieces.length - 1;
  for (let index = 1; index < lastIndex; index++) {
    const piece = pieces[index] as string;
    if (piece === '') continue;
    const found = path.indexOf(piece, position);
    if (found === -1) return false;
    position = found + piece.length;
  }
  const last = pieces[lastIndex] as string;
  if (anchored) return path.length - last.length >= position && path.endsWith(last);
  return last === '' || path.indexOf(last, position) !== -1;
}

/** The product token of a User-agent line: `Foo-Bot/2.1 (+url)` is `foo-bot`. */
function productToken(value: string): string {
  return (value.split(/[\s/]/)[0] ?? '').toLowerCase();
}

/**
 * Parses a robots.txt (RFC 9309) for the user agent `token`: the groups naming it, or else the `*` groups, with their
 * Allow and Disallow rules, at most `maxRobotsRules` of at most `maxRobotsPatternLength` characters and
 * `maxRobotsWildcards` wildcards each, so matching one URL costs at most rules times wildcards times its length.
 */
export function parseRobotsRules(text: string, token: string): RobotsRules {
  const ours = token.toLowerCase();
  const own: RobotsRule[] = [];
  const anyone: RobotsRule[] = [];
  let agents: string[] = [];
  let inRules = false;
  let namedUs = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '');
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (inRules) agents = [];
      inRules = false;
      agents.push(productToken(value));
      if (agents.includes(ours)) namedUs = true;
      continue;
    }
    if (key !== 'allow' && key !== 'disallow') continue;
    inRules = true;
    // An empty Disallow allows everything; an over-long pattern or one of many wildcards is no real rule.
    if (value === '' || value.length > maxRobotsPatternLength) continue;
    const target = agents.includes(ours) ? own : agents.includes('*') ? anyone : undefined;
    if (!target || target.length >= maxRobotsRules) continue;
    const rule = compile(value, key === 'allow');
    if (rule.pieces.length <= maxRobotsWildcards + 1) target.push(rule);
  }
  const rules = namedUs ? own : anyone;
  return {
    allows(pathAndQuery) {
      const path = normalise(pathAndQuery.slice(0, maxMatchedPathLength));
      let best: RobotsRule | undefined;
      for (const rule of rules) {
        if (best && (rule.length < best.length || (rule.length === best.length && !rule.allow))) continue;
        if (matches(rule, path)) best = rule;
      }
      return best?.allow ?? true;
    },
  };
}
