// #region server
import { createServer, type KitServer } from '@mcpkit/server-kit';
import { type Note, NoteStore } from './notes.js';
import { reviewNote } from './prompts.js';
import { noteIndex, noteResource } from './resources.js';
import { deleteNote } from './tools/delete-note.js';
import { greet } from './tools/greet.js';
import { noteStats } from './tools/note-stats.js';
import { readNote } from './tools/read-note.js';
import { summarizeNote } from './tools/summarize-note.js';
import { writeNote } from './tools/write-note.js';

/** How the hello server is configured. */
export interface HelloServerOptions {
  /** What `greet` says before the name. */
  greeting?: string;
  /** The notes the server starts with. */
  notes?: Note[];
}

/** Builds the hello server: a notes store with tools, resources and a prompt over it. */
export function createHelloServer(options: HelloServerOptions = {}): KitServer {
  const notes = new NoteStore(options.notes ?? [{ name: 'welcome', text: 'Welcome to the hello server.' }]);
  // Tools that change a note tell the clients subscribed to it (the server is created just below).
  const changed = (name: string) => void server.notifyResourceUpdated(`notes://${name}`);
  const server = createServer({
    name: 'mcpkit-hello',
    version: '0.1.0',
    instructions: 'A notes server: read_note pages through long notes; write_note and delete_note change them.',
    tools: [
      greet(options.greeting ?? 'Hello'),
      readNote(notes),
      noteStats(notes),
      writeNote(notes, changed),
      deleteNote(notes, changed),
      summarizeNote(notes),
    ],
    resources: [noteIndex(notes), noteResource(notes)],
    prompts: [reviewNote(notes)],
  });
  return server;
}
// #endregion server
