// #region delete-note
import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { NoteStore } from '../notes.js';

/** `delete_note`: asks the user to confirm through elicitation before it deletes anything. */
export function deleteNote(notes: NoteStore, changed: (name: string) => void) {
  return defineTool({
    name: 'delete_note',
    description: 'Deletes a note after the user confirms.',
    input: z.object({ name: z.string().describe('The note to delete') }),
    annotations: { destructiveHint: true },
    async handler({ name }, { elicit, client }) {
      notes.read(name); // a ToolError for an unknown note, before asking anyone anything
      if (client.supports('elicitation')) {
        const answer = await elicit(
          `Delete the note "${name}"?`,
          z.object({ confirm: z.boolean().describe('Yes, delete it') }),
        );
        if (answer.action !== 'accept' || !answer.content.confirm) return `Kept the note "${name}".`;
      } else {
        throw new ToolError('This client cannot ask the user to confirm, so notes cannot be deleted from it.');
      }
      notes.delete(name);
      changed(name);
      return `Deleted the note "${name}".`;
    },
  });
}
// #endregion delete-note
