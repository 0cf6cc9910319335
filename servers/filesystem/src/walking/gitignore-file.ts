import { compileGlob } from '@mcpkit/server-kit';

/** Most rules kept from one .gitignore; the rest are left out, with a note. */
export const maxRulesPerFile = 1_000;
/** Characters of patterns kept from one .gitignore: what bounds the cost of testing one entry against it. */
export const maxPatternCharsPerFile = 16_384;
/** Longest rule kept (the glob matcher's own limit). */
const maxRuleLength = 256;
/**
 * Rules, and characters of their patterns, in force at once along a walk: the .gitignore files from the walk root
 * down all apply to an entry, so 200 nested capped files put 200,000 rules on each entry at the bottom (1.7 s on one
 * entry, on the main thread). Deeper files get what room is left, with a note. As the search server's 3,000.
 */
export const maxRulesInForce = 3_000;
export const maxPatternCharsInForce = 3 * maxPatternCharsPerFile;

/** How many rules, and characters of patterns, one file may still add. */
export interface RuleRoom {
  rules: number;
  chars: number;
}

interface Rule {
  negated: boolean;
  directoryOnly: boolean;
  /** Against the whole path relative to the .gitignore's directory (the rule has an inner slash) or the name. */
  byPath: boolean;
  matches(subject: string): boolean;
}

/** What testing a path against one file's rules says: the last matching rule decides. */
export type RuleVerdict = 'ignored' | 'included' | undefined;

/**
 * The rules of one .gitignore, compiled with the kit's glob matcher (linear in pattern and name, no backtracking
 * regex) and capped in count and total size, so testing an entry costs a bounded amount whatever the file holds.
 */
export class GitignoreFile {
  private readonly rules: readonly Rule[];
  /** Why some rules were left out, when they were. */
  readonly note: string | undefined;
  /** Characters of the patterns kept. */
  readonly patternChars: number;

  /** `room`: what the rules already in force leave (by default a whole file's caps). */
  constructor(text: string, room: RuleRoom = { rules: maxRulesPerFile, chars: maxPatternCharsPerFile }) {
    const rules: Rule[] = [];
    const mostRules = Math.min(maxRulesPerFile, room.rules);
    const mostChars = Math.min(maxPatternCharsPerFile, room.chars);
    let chars = 0;
    let dropped = 0;
    for (const line of text.split(/\r?\n/)) {
      const rule = parseRule(line);
      if (rule === undefined) continue;
      if (rule === 'invalid' || rules.length >= mostRules || chars + line.length > mostChars) {
        dropped++;
        continue;
      }
      chars += line.length;
      rules.push(rule);
    }
    this.rules = rules;
    this.patternChars = chars;
    this.note =
      dropped > 0
        ? `${dropped} .gitignore rules were not applied (a .gitignore is read up to ${maxRulesPerFile} rules, ${maxPatternCharsPerFile} characters of patterns, ${maxRuleLength} characters a rule, and at most ${maxRulesInForce} rules and ${maxPatternCharsInForce} characters are in force at once); pass includeIgnored: true to see every entry`
        : undefined;
  }

  /** How many rules were kept. */
  get size(): number {
    return this.rules.length;
  }

  /** The verdict of these rules on a path relative to the .gitignore's directory (posix, no trailing slash). */
  test(relative: string, isDirectory: boolean): RuleVerdict {
    const name = relative.slice(relative.lastIndexOf('/') + 1);
    for (let index = this.rules.length - 1; index >= 0; index--) {
      const rule = this.rules[index] as Rule;
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.matches(rule.byPath ? relative : name)) return rule.negated ? 'included' : 'ignored';
    }
    return undefined;
  }
}

/** One line of a .gitignore as a rule: undefined for blanks and comments, `invalid` for one that cannot be used. */
function parseRule(line: string): Rule | 'invalid' | undefined {
  let pattern = line.replace(/(?<!\\) +$/, '');
  if (pattern === '' || pattern.startsWith('#')) return undefined;
  if (pattern.length > maxRuleLength) return 'invalid';
  const negated = pattern.startsWith('!');
  if (negated) pattern = pattern.slice(1);
  else if (pattern.startsWith('\\!') || pattern.startsWith('\\#')) pattern = pattern.slice(1);
  const directoryOnly = pattern.endsWith('/') && !pattern.endsWith('\\/');
  if (directoryOnly) pattern = pattern.slice(0, -1);
  // A slash at the start or in the middle anchors the rule to the .gitignore's directory; otherwise it is a name.
  const byPath = pattern.includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  if (pattern === '') return undefined;
  try {
    return { negated, directoryOnly, byPath, matches: compileGlob(pattern, { dot: true }) };
  } catch {
    return 'invalid';
  }
}
