// #region read-note
import { budgetText, defineTool, truncationNote } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { NoteStore } from '../notes.js';

/** `read_note`: reads a note a page at a time, so that a long note never floods the model's context. */
export function readNote(notes: NoteStore) {
  return defineTool({
    name: 'read_note',
    description: 'Reads a note. Long notes come a page at a time: pass the offset the previous page ends with.',
    input: z.object({
      name: z.string().describe('The note to read'),
      offset: z.number().int().min(0).default(0).describe('Where to start, in characters'),
      limit: z.number().int().min(100).max(20_000).default(2_000).describe('How many characters at most'),
    }),
    annotations: { readOnlyHint: true },
    handler: ({ name, offset, limit }) => {
      const text = notes.read(name).slice(offset); // throws a ToolError for an unknown note
      const page = budgetText(text, limit);
      if (!page.truncated) return page.text;
      const next = offset + page.shown;
      return `${page.text}\n${truncationNote(next, offset + page.total, `Call read_note again with offset=${next}.`)}`;
    },
  });
}
// #endregion read-note
