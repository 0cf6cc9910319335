import { ToolError } from '@mcpkit/server-kit';

/** A note: a name and its text. */
export interface Note {
  name: string;
  text: string;
}

/** The notes the server serves, kept in memory; the one place that knows how notes are stored. */
export class NoteStore {
  private readonly notes = new Map<string, string>();

  constructor(initial: Note[] = []) {
    for (const note of initial) this.notes.set(note.name, note.text);
  }

  /** The names of every note, sorted. */
  names(): string[] {
    return [...this.notes.keys()].sort();
  }

  // #region tool-error
  /** The text of a note; a ToolError naming the notes there are when it does not exist. */
  read(name: string): string {
    const text = this.notes.get(name);
    if (text === undefined) {
      throw new ToolError(`There is no note named "${name}"; the notes are: ${this.names().join(', ') || 'none'}.`);
    }
    return text;
  }
  // #endregion tool-error

  /** Creates or replaces a note. */
  write(name: string, text: string): void {
    this.notes.set(name, text);
  }

  /** Deletes a note; false when there was none. */
  delete(name: string): boolean {
    return this.notes.delete(name);
  }
}
