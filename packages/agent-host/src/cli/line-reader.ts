import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';

/**
 * Reads lines for the chat and for questions asked during a run. Lines are queued as they arrive, so piped input is
 * not lost between questions (readline's own `question` drops lines that come while nobody asks).
 */
export class LineReader {
  private readonly lines: string[] = [];
  private readonly waiting: Array<{ resolve(line: string): void; reject(error: Error): void }> = [];
  private closed = false;
  private readonly editor: Interface;
  // While a hidden answer is typed, the terminal's echo of it is dropped (the prompt itself is written directly).
  private muted = false;

  constructor(
    input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
  ) {
    const terminal = Boolean((input as { isTTY?: boolean }).isTTY);
    const echo = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        if (!this.muted) output.write(chunk);
        done();
      },
    });
    this.editor = createInterface({ input, output: echo, terminal });
    this.editor.on('line', (line) => {
      if (this.muted) {
        this.muted = false;
        output.write('\n');
      }
      const waiter = this.waiting.shift();
      if (waiter) waiter.resolve(line);
      else this.lines.push(line);
    });
    this.editor.on('close', () => {
      this.closed = true;
      for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('input closed'));
    });
  }

  /**
   * Shows a prompt on stderr and resolves with the next line; rejects once the input has ended, or when `signal`
   * aborts (a cancelled run withdraws its question; a line typed later goes to the next question). With `hidden`,
   * what is typed is not echoed (a password).
   */
  question(prompt: string, options: { hidden?: boolean; signal?: AbortSignal } = {}): Promise<string> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new Error('question withdrawn'));
    this.output.write(prompt);
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closed) return Promise.reject(new Error('input closed'));
    this.muted = options.hidden === true;
    return new Promise((resolve, reject) => {
      const withdraw = () => {
        const index = this.waiting.indexOf(waiter);
        if (index === -1) return;
        this.waiting.splice(index, 1);
        this.muted = false;
        this.output.write('\n');
        reject(new Error('question withdrawn'));
      };
      const waiter = {
        resolve: (line: string) => {
          signal?.removeEventListener('abort', withdraw);
          resolve(line);
        },
        reject: (error: Error) => {
          signal?.removeEventListener('abort', withdraw);
          reject(error);
        },
      };
      this.waiting.push(waiter);
      signal?.addEventListener('abort', withdraw, { once: true });
    });
  }

  /** Called on Ctrl-C at the terminal. */
  onInterrupt(handler: () => void): void {
    this.editor.on('SIGINT', handler);
  }

  close(): void {
    this.editor.close();
  }
}
