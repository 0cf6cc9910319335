import { ToolError } from '../errors.js';

/** Most alternatives one glob may expand to; each alternative is matched on its own. */
export const maxAlternatives = 64;

/** Most numbers one `{from..to}` range may stand for. */
const maxRangeLength = 64;

/**
 * Expands `{a,b}` alternatives and `{1..3}` ranges (nested too) into plain globs, refusing a pattern that would
 * expand to more than {@link maxAlternatives}: expansion is what keeps the matcher free of alternation, so its
 * size must be bounded. A brace without a comma or a range, and an escaped brace, stay literal.
 */
export function expandBraces(pattern: string): string[] {
  const results = expand(pattern);
  if (results.length > maxAlternatives) throw tooMany(pattern);
  return results;
}

function expand(pattern: string): string[] {
  const group = findGroup(pattern);
  if (!group) return [pattern];
  const head = pattern.slice(0, group.open);
  const tails = expand(pattern.slice(group.close + 1));
  const results: string[] = [];
  for (const option of group.options) {
    for (const expanded of expand(option)) {
      for (const tail of tails) {
        results.push(head + expanded + tail);
        if (results.length > maxAlternatives) throw tooMany(pattern);
      }
    }
  }
  return results;
}

interface BraceGroup {
  open: number;
  close: number;
  options: string[];
}

/** The first brace group that expands: `{x,y}` with a top-level comma, or a numeric range. */
function findGroup(pattern: string): BraceGroup | undefined {
  for (let open = 0; open < pattern.length; open++) {
    const character = pattern[open];
    if (character === '\\') {
      open++;
      continue;
    }
    if (character !== '{') continue;
    const group = readGroup(pattern, open);
    if (group) return group;
  }
  return undefined;
}

function readGroup(pattern: string, open: number): BraceGroup | undefined {
  let depth = 0;
  let start = open + 1;
  const options: string[] = [];
  for (let index = open + 1; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') {
      index++;
    } else if (character === '{') {
      depth++;
    } else if (character === '}' && depth > 0) {
      depth--;
    } else if (character === ',' && depth === 0) {
      options.push(pattern.slice(start, index));
      start = index + 1;
    } else if (character === '}') {
      const last = pattern.slice(start, index);
      if (options.length > 0) return { open, close: index, options: [...options, last] };
      const range = numericRange(last);
      return range ? { open, close: index, options: range } : undefined;
    }
  }
  return undefined;
}

function numericRange(body: string): string[] | undefined {
  const match = /^(-?\d{1,6})\.\.(-?\d{1,6})$/.exec(body);
  if (!match) return undefined;
  const from = Number(match[1]);
  const to = Number(match[2]);
  if (Math.abs(to - from) + 1 > maxRangeLength) {
    throw new ToolError(
      `The range {${body}} stands for ${Math.abs(to - from) + 1} numbers; use at most ${maxRangeLength}, or a wildcard such as "*".`,
    );
  }
  const step = from <= to ? 1 : -1;
  const numbers: string[] = [];
  for (let value = from; value !== to + step; value += step) numbers.push(String(value));
  return numbers;
}

function tooMany(pattern: string): ToolError {
  return new ToolError(
    `The pattern "${pattern}" expands to more than ${maxAlternatives} alternatives; use fewer {a,b} groups or a wildcard.`,
  );
}
