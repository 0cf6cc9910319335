import { ToolError } from '@mcpkit/server-kit/task';

/** One replacement asked for by the model. */
export interface TextEdit {
  oldText: string;
  newText: string;
  replaceAll?: boolean | undefined;
}

/** How a file's text is laid out on disk, so an edit writes it back the same way. */
export interface TextLayout {
  bom: boolean;
  crlf: boolean;
}

/** Splits a file into its layout and LF-only text. */
export function parseLayout(raw: string): { layout: TextLayout; text: string } {
  const bom = raw.charCodeAt(0) === 0xfeff;
  const body = bom ? raw.slice(1) : raw;
  const crlfCount = body.split('\r\n').length - 1;
  const lfCount = body.split('\n').length - 1;
  // CRLF when most line breaks are CRLF.
  const crlf = crlfCount > 0 && crlfCount * 2 >= lfCount;
  return { layout: { bom, crlf }, text: body.replace(/\r\n/g, '\n') };
}

/** Puts an LF-only text back into the file's layout. */
export function applyLayout(text: string, layout: TextLayout): string {
  const body = layout.crlf ? text.replace(/\n/g, '\r\n') : text;
  return layout.bom ? `\ufeff${body}` : body;
}

function occurrences(text: string, search: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, index + search.length)) {
    found.push(index);
  }
  return found;
}

/**
 * Lines whose trimmed content equals the trimmed lines of `oldText`, the official server's fallback for edits whose
 * indentation differs; returns the start line of each match.
 */
function looseMatches(lines: readonly string[], oldLines: readonly string[]): number[] {
  const found: number[] = [];
  for (let start = 0; start + oldLines.length <= lines.length; start++) {
    if (oldLines.every((line, index) => line.trim() === lines[start + index]?.trim())) found.push(start);
  }
  return found;
}

/** The sentence for edits whose result would be longer than `maxChars`. */
function tooLarge(chars: number, maxChars: number): ToolError {
  return new ToolError(
    `The edits would make the file ${chars.toLocaleString('en-US')} characters long; edit_file writes at most ${maxChars / 1024 / 1024} MB (${maxChars.toLocaleString('en-US')} characters). Change fewer places at once.`,
  );
}

/**
 * Applies edits in order to LF-only text; each must match exactly once unless it sets replaceAll. The length of each
 * step's result is worked out before it is built and refused past `maxChars`: replaceAll can multiply a text, and
 * edits can multiply it again one after the other (a 300 MB text built in a worker made V8 end the whole process).
 */
export function applyEdits(text: string, edits: readonly TextEdit[], maxChars = Number.POSITIVE_INFINITY): string {
  let result = text;
  edits.forEach((edit, index) => {
    const which = edits.length > 1 ? `Edit ${index + 1}` : 'The edit';
    const oldText = edit.oldText.replace(/\r\n/g, '\n');
    const newText = edit.newText.replace(/\r\n/g, '\n');
    if (oldText === '') throw new ToolError(`${which} has an empty oldText; give the exact text to replace.`);
    const exact = occurrences(result, oldText);
    if (exact.length > 1 && !edit.replaceAll) {
      throw new ToolError(
        `${which}: oldText matches ${exact.length} times; include more surrounding lines to make it unique, or set replaceAll.`,
      );
    }
    if (exact.length > 0) {
      const projected = result.length + exact.length * (newText.length - oldText.length);
      if (projected > maxChars) throw tooLarge(projected, maxChars);
      result = edit.replaceAll ? result.split(oldText).join(newText) : result.replace(oldText, () => newText);
      return;
    }
    const lines = result.split('\n');
    const oldLines = oldText.split('\n');
    const loose = looseMatches(lines, oldLines);
    if (loose.length === 0) {
      throw new ToolError(`${which}: oldText was not found; read the file again and copy the text exactly.`);
    }
    if (loose.length > 1 && !edit.replaceAll) {
      throw new ToolError(
        `${which}: oldText matches ${loose.length} places (ignoring indentation); include more lines to make it unique, or set replaceAll.`,
      );
    }
    // Each place loses its old lines and gains newText with the first line's indentation.
    let projected = result.length;
    for (const start of loose) {
      const indent = /^\s*/.exec(lines[start] ?? '')?.[0] ?? '';
      projected += indent.length + newText.length;
      for (let line = start; line < start + oldLines.length; line++) projected -= (lines[line]?.length ?? 0) + 1;
      projected += 1;
    }
    if (projected > maxChars) throw tooLarge(projected, maxChars);
    for (const start of loose.reverse()) {
      const indent = /^\s*/.exec(lines[start] ?? '')?.[0] ?? '';
      const replacement = newText
        .split('\n')
        .map((line, lineIndex) => (lineIndex === 0 ? indent + line.trimStart() : line));
      lines.splice(start, oldLines.length, ...replacement);
    }
    result = lines.join('\n');
  });
  return result;
}
