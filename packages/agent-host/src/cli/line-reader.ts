import { createInterface, type Interface } from 'node:readline';
import { writeError } from './output.js';

/**
 * Reads lines for the chat and for questions asked during a run. Lines are queued as they arrive, so piped input is
 * not lost between questions (readline's own `question` drops lines that come while nobody asks).
 */
export class LineReader {
  private readonly lines: string[] = [];
  private readonly waiting: Array<{ resolve(line: string): void; reject(error: Error): void }> = [];
  private closed = false;
  private readonly editor: Interface;

  constructor(input: NodeJS.ReadableStream = process.stdin) {
    const terminal = Boolean((input as { isTTY?: boolean }).isTTY);
    this.editor = createInterface({ input, output: process.stderr, terminal });
    this.editor.on('line', (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter.resolve(line);
      else this.lines.push(line);
    });
    this.editor.on('close', () => {
      this.closed = true;
      for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('input closed'));
    });
  }

  /** Shows a prompt on stderr and resolves with the next line; rejects once the input has ended. */
  question(prompt: string): Promise<string> {
    writeError(prompt);
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closed) return Promise.reject(new Error('input closed'));
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** Called on Ctrl-C at the terminal. */
  onInterrupt(handler: () => void): void {
    this.editor.on('SIGINT', handler);
  }

  close(): void {
    this.editor.close();
  }
}
