// #region prompts
import { definePrompt } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { NoteStore } from './notes.js';

/** `review_note`: a prompt template that puts a note in front of the model with instructions. */
export function reviewNote(notes: NoteStore) {
  return definePrompt({
    name: 'review_note',
    description: 'Asks the model to review a note for clarity.',
    arguments: z.object({
      name: z.string().describe('The note to review'),
      tone: z.string().optional().describe('How the review should sound, e.g. "gentle"'),
    }),
    complete: { name: (typed) => notes.names().filter((name) => name.startsWith(typed)) },
    render: ({ name, tone }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: `notes://${name}`, mimeType: 'text/plain', text: notes.read(name) },
        },
      },
      {
        role: 'user',
        content: { type: 'text', text: `Review the note above for clarity${tone ? `, in a ${tone} tone` : ''}.` },
      },
    ],
  });
}
// #endregion prompts
