// #region write-note
import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { NoteStore } from '../notes.js';

/** `write_note`: creates or replaces a note and tells subscribed clients that it changed. */
export function writeNote(notes: NoteStore, changed: (name: string) => void) {
  return defineTool({
    name: 'write_note',
    description: 'Creates a note, or replaces the text of an existing one.',
    input: z.object({
      name: z.string().regex(/^[a-z0-9-]{1,40}$/, 'use 1 to 40 lowercase letters, digits and dashes'),
      text: z.string().max(100_000),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    handler: ({ name, text }, { log }) => {
      notes.write(name, text);
      changed(name);
      log.info(`Wrote note ${name}`, { characters: text.length });
      return `Saved note "${name}" (${text.length} characters).`;
    },
  });
}
// #endregion write-note
