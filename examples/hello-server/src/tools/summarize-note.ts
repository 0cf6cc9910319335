// #region summarize-note
import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { NoteStore } from '../notes.js';

/** `summarize_note`: asks the client's own model for a summary (sampling), reporting progress on the way. */
export function summarizeNote(notes: NoteStore) {
  return defineTool({
    name: 'summarize_note',
    description: "Summarizes a note in one sentence, using the client's model.",
    input: z.object({ name: z.string().describe('The note to summarize') }),
    annotations: { readOnlyHint: true, openWorldHint: true },
    async handler({ name }, { sample, progress, signal }) {
      const text = notes.read(name);
      await progress(0, 2, 'Asking the model');
      const answer = await sample({
        prompt: `Summarize this note in one sentence:\n\n${text.slice(0, 20_000)}`,
        maxTokens: 200,
      });
      signal.throwIfAborted(); // the client may have cancelled while its model was thinking
      await progress(2, 2, 'Done');
      return answer.content.type === 'text' ? answer.content.text : 'The model answered without text.';
    },
  });
}
// #endregion summarize-note
