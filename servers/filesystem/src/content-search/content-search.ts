import { RE2JS } from 're2js';

/** How grep decides which text matches. */
export interface ContentMatcher {
  /** A fast test of a whole file's bytes; false means no line can match. */
  mayMatch(bytes: Uint8Array): boolean;
  /** Whether one line matches. */
  matchesLine(line: string): boolean;
}

/** A pattern that does not compile; its message is one sentence for the model. */
export class InvalidPatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPatternError';
  }
}

/** Longest pattern accepted, in characters. */
export const maxPatternLength = 1_000;
/**
 * Most RE2 instructions a compiled pattern may have. Matching is linear in the text but proportional to the program
 * too (`\w{1000}` is a thousand instructions, tried at every character): ordinary patterns need a few dozen.
 */
export const maxProgramSize = 1_000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Builds the matcher for a grep. Regular expressions use RE2 syntax (as ripgrep does) and run on RE2JS, whose time
 * is linear in the input, so no pattern can hang the server; literals are searched as bytes without decoding.
 */
export function contentMatcher(pattern: string, options: { literal: boolean; ignoreCase: boolean }): ContentMatcher {
  if (pattern.length > maxPatternLength) {
    throw new InvalidPatternError(`The pattern is ${pattern.length} characters long; use at most ${maxPatternLength}.`);
  }
  // A pattern without metacharacters means the same as a literal, and the byte search is several times faster.
  const literal = options.literal || !/[\\^$.*+?()[\]{}|]/.test(pattern);
  if (literal && !options.ignoreCase) {
    const needle = Buffer.from(pattern, 'utf8');
    return {
      mayMatch: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle) !== -1,
      matchesLine: (line) => line.includes(pattern),
    };
  }
  if (literal) {
    // An escaped literal cannot backtrack, so the built-in engine is safe here.
    const expression = new RegExp(escapeRegExp(pattern), 'i');
    const decoder = new TextDecoder();
    return {
      mayMatch: (bytes) => expression.test(decoder.decode(bytes)),
      matchesLine: (line) => expression.test(line),
    };
  }
  let expression: RE2JS;
  try {
    expression = RE2JS.compile(pattern, RE2JS.MULTILINE | (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidPatternError(
      `The pattern is not a valid regular expression (RE2 syntax): ${reason}. Set literal: true to search the text as is.`,
    );
  }
  if (expression.programSize() > maxProgramSize) {
    throw new InvalidPatternError(
      `The pattern compiles to ${expression.programSize()} RE2 instructions, more than the ${maxProgramSize} allowed (large repetition counts such as {500} cost one instruction per repeat); write a shorter pattern or search for a literal part of it.`,
    );
  }
  return {
    mayMatch: (bytes) => expression.test(bytes),
    matchesLine: (line) => expression.test(line),
  };
}
