import { createTwoFilesPatch } from 'diff';
import { applyEdits, applyLayout, parseLayout, type TextEdit } from './text-edits.js';

/** What edit_file sends to a worker. */
export interface EditTaskInput {
  /** The file's real path, for the diff's header. */
  path: string;
  /** The file's bytes as read (UTF-8, with its own line endings and BOM). */
  raw: Uint8Array;
  edits: TextEdit[];
  /** Characters the edited text may have at most. */
  maxChars: number;
}

/** The file's new bytes, in its own layout, and a unified diff of the change (or a sentence when it takes too long). */
export interface EditTaskOutput {
  content: Uint8Array;
  diff: string;
}

/** Milliseconds the diff may take before the answer falls back to a summary of the change. */
const diffTimeMs = 2_000;

/**
 * Decodes the file, applies the edits and diffs the result, then writes it back into the file's layout and encodes
 * it; an off-thread task, because each of these steps costs time in proportion to the file, the edits or the change,
 * on text a model or a file supplies (telling CRLF from LF in a 10 MB file of line breaks alone took over a second).
 */
export function editText(input: EditTaskInput): EditTaskOutput {
  const raw = Buffer.from(input.raw.buffer, input.raw.byteOffset, input.raw.byteLength);
  const { layout, text } = parseLayout(raw.toString('utf8'));
  const edited = applyEdits(text, input.edits, input.maxChars);
  const diff = createTwoFilesPatch(input.path, input.path, text, edited, 'original', 'modified', {
    timeout: diffTimeMs,
  });
  return {
    content: Buffer.from(applyLayout(edited, layout), 'utf8'),
    diff: diff ?? summary(input.path, text, edited),
  };
}

function summary(path: string, before: string, after: string): string {
  const lines = (text: string) => text.split('\n').length;
  return (
    `--- ${path}\toriginal\n+++ ${path}\tmodified\n` +
    `# The change is too large to show as a diff within ${diffTimeMs / 1000} s: ${lines(before)} lines before, ` +
    `${lines(after)} lines after. Read the file to check the result.\n`
  );
}
