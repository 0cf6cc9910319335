import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader.js';

/** A terminal stand-in: keystrokes in, everything the reader shows collected. */
function terminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString('utf8');
  });
  return { input, output, shown: () => shown };
}

describe('LineReader', () => {
  it('echoes what is typed at a terminal, except a hidden answer', async () => {
    const tty = terminal();
    const reader = new LineReader(tty.input, tty.output);
    try {
      const name = reader.question('Name: ');
      tty.input.write('ada\r');
      expect(await name).toBe('ada');
      const secret = reader.question('API key: ', { hidden: true });
      tty.input.write('s3cr3t-value\r');
      expect(await secret).toBe('s3cr3t-value');
      const after = reader.question('Next: ');
      tty.input.write('shown\r');
      expect(await after).toBe('shown');
      expect(tty.shown()).toContain('Name: ');
      expect(tty.shown()).toContain('ada');
      expect(tty.shown()).toContain('API key: ');
      expect(tty.shown()).not.toContain('s3cr3t');
      expect(tty.shown()).toContain('shown');
    } finally {
      reader.close();
    }
  });

  it('withdraws a question when its signal aborts, and gives the next line to the next question', async () => {
    const tty = terminal();
    const reader = new LineReader(tty.input, tty.output);
    try {
      const controller = new AbortController();
      const withdrawn = reader.question('Run it? ', { signal: controller.signal });
      controller.abort();
      await expect(withdrawn).rejects.toThrow('question withdrawn');
      const next = reader.question('> ');
      tty.input.write('hello\r');
      expect(await next).toBe('hello');
      await expect(reader.question('Late? ', { signal: controller.signal })).rejects.toThrow('question withdrawn');
    } finally {
      reader.close();
    }
  });
});
