// #region note-stats
import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { NoteStore } from '../notes.js';

/** `note_stats`: a tool with an output schema, so that clients get structured content they can check. */
export function noteStats(notes: NoteStore) {
  return defineTool({
    name: 'note_stats',
    description: 'Counts the lines, words and characters of a note.',
    input: z.object({ name: z.string().describe('The note to count') }),
    output: z.object({
      name: z.string(),
      lines: z.number().int(),
      words: z.number().int(),
      characters: z.number().int(),
    }),
    annotations: { readOnlyHint: true },
    handler: ({ name }) => {
      const text = notes.read(name);
      return {
        name,
        lines: text === '' ? 0 : text.split('\n').length,
        words: text.split(/\s+/).filter(Boolean).length,
        characters: text.length,
      };
    },
  });
}
// #endregion note-stats
