import { createTwoFilesPatch } from 'diff';
import { applyEdits, type TextEdit } from './text-edits.js';

/** What edit_file sends to a worker. */
export interface EditTaskInput {
  /** The file's real path, for the diff's header. */
  path: string;
  /** The file's LF-only text. */
  text: string;
  edits: TextEdit[];
}

/** The edited text and a unified diff of the change (or a sentence when the diff would take too long). */
export interface EditTaskOutput {
  edited: string;
  diff: string;
}

/** Milliseconds the diff may take before the answer falls back to a summary of the change. */
const diffTimeMs = 2_000;

/**
 * Applies edits and diffs the result; an off-thread task, because both matching the edits (ignoring indentation)
 * and diffing (Myers) cost grows with the file times the change, on text a model or a file supplies.
 */
export function editText(input: EditTaskInput): EditTaskOutput {
  const edited = applyEdits(input.text, input.edits);
  const diff = createTwoFilesPatch(input.path, input.path, input.text, edited, 'original', 'modified', {
    timeout: diffTimeMs,
  });
  return { edited, diff: diff ?? summary(input.path, input.text, edited) };
}

function summary(path: string, before: string, after: string): string {
  const lines = (text: string) => text.split('\n').length;
  return (
    `--- ${path}\toriginal\n+++ ${path}\tmodified\n` +
    `# The change is too large to show as a diff within ${diffTimeMs / 1000} s: ${lines(before)} lines before, ` +
    `${lines(after)} lines after. Read the file to check the result.\n`
  );
}
