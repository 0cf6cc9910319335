// #region resources
import { defineResource } from '@mcpkit/server-kit';
import type { NoteStore } from './notes.js';

/** `notes://{name}`: every note as a resource, listed and completed by name. */
export function noteResource(notes: NoteStore) {
  return defineResource({
    template: 'notes://{name}',
    name: 'note',
    description: 'A note, by name.',
    mimeType: 'text/plain',
    read: (_uri, { name }) => notes.read(String(name)),
    list: () => notes.names().map((name) => ({ uri: `notes://${name}`, name, mimeType: 'text/plain' })),
    complete: { name: (typed) => notes.names().filter((name) => name.startsWith(typed)) },
  });
}

/** `notes://index`: one fixed resource, the list of notes. */
export function noteIndex(notes: NoteStore) {
  return defineResource({
    uri: 'notes://index',
    name: 'index',
    description: 'The names of all notes, one a line.',
    mimeType: 'text/plain',
    read: () => notes.names().join('\n'),
  });
}
// #endregion resources
