import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { HostError } from '../errors.js';

/** The line and column (both from 1) of an offset in a text. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/** `CommaExpected` → `comma expected`. */
function describeCode(error: ParseError): string {
  return printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/**
 * Parses JSON with comments and trailing commas (JSONC, as VS Code and Cursor write their configs) with Microsoft's
 * parser, the one VS Code uses. The first error is a CONFIG_INVALID HostError naming the file, line and column.
 */
export function parseJsonc(text: string, file: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = position(text, first.offset);
    throw new HostError('CONFIG_INVALID', `${file}:${line}:${column}: is not valid JSON: ${describeCode(first)}.`);
  }
  return value;
}
