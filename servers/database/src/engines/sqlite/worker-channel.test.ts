import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSampleDatabase } from '../../sample-database.js';
import { openSqliteEngine } from './sqlite-engine.js';
import { FrameReader, frame } from './worker-channel.js';
import { WorkerProcess } from './worker-process.js';

/** Feeds `data` to a reader in pieces of the given sizes (the rest in one piece) and returns the messages it made. */
function readInPieces(data: Buffer, sizes: number[]): unknown[] {
  const reader = new FrameReader();
  const messages: unknown[] = [];
  let offset = 0;
  for (const size of [...sizes, data.length]) {
    if (offset >= data.length) break;
    reader.push(data.subarray(offset, offset + size), (message) => messages.push(message));
    offset += size;
  }
  return messages;
}

describe('the channel to a SQLite worker', () => {
  const small = { id: 1, ok: true, value: { text: 'one row', structuredJson: '{"rows":[[1]]}' } };
  const large = { id: 2, ok: true, value: { text: `é${'x'.repeat(200_000)}`, rows: [[1, null, 'a', Infinity, -0]] } };

  it('gives back each message whole and in order, however the reads cut them', () => {
    const data = Buffer.concat([frame(small), frame(large), frame(small)]);
    for (const sizes of [
      [],
      [1],
      [3],
      [4],
      [5, 1, 1],
      [frame(small).length + 7],
      [65_536, 65_536],
      [data.length - 1],
    ]) {
      expect(readInPieces(data, sizes)).toEqual([small, large, small]);
    }
    let byteByByte = 0;
    const reader = new FrameReader();
    for (let index = 0; index < frame(small).length; index += 1) {
      reader.push(frame(small).subarray(index, index + 1), () => {
        byteByByte += 1;
      });
    }
    expect(byteByByte).toBe(1);
  });

  it('keeps values as the structured clone does (Infinity, -0, undefined members), as Node IPC did', () => {
    const [message] = readInPieces(frame({ a: Infinity, b: -0, c: undefined, d: [NaN] }), []);
    expect(message).toEqual({ a: Infinity, b: -0, c: undefined, d: [NaN] });
    expect(Object.is((message as { b: number }).b, -0)).toBe(true);
  });

  it('kills a worker whose reply does not decode, failing its call, and the server goes on', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcpkit-garbled-'));
    try {
      // A worker that answers any request with a frame of five bytes V8 cannot read.
      const entry = join(directory, 'garbled-worker.mjs');
      writeFileSync(
        entry,
        "import { readSync, writeSync } from 'node:fs';\n" +
          'readSync(3, Buffer.alloc(64));\n' +
          'writeSync(3, Buffer.from([0, 0, 0, 5, 0xff, 0x0f, 0x99, 0x99, 0x99]));\n' +
          'setInterval(() => {}, 1000);\n',
      );
      const worker = new WorkerProcess(entry, { memoryMb: 64 });
      const gone = new Promise<void>((resolve) => worker.whenGone(resolve));
      await expect(worker.request({ op: 'list_tables' })).rejects.toThrow(
        'The SQLite worker process exited (SIGKILL).',
      );
      await gone;
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  describe('a worker process', () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcpkit-channel-'));
    const file = join(directory, 'company.sqlite');
    createSampleDatabase(file);
    afterAll(() => rmSync(directory, { recursive: true, force: true }));

    it('reads a request longer than its read buffer and answers with more than a socket holds at once', async () => {
      const engine = await openSqliteEngine({ file, timeoutMs: 10_000, byteBudget: 1_000_000, cellChars: 500_000 });
      const signal = new AbortController().signal;
      try {
        // A statement of 300,000 characters (the worker reads 64 KB at a time) whose one value comes back whole.
        const literal = 'ab'.repeat(150_000);
        const result = await engine.query({ sql: `SELECT '${literal}' AS long_text`, maxRows: 10 }, signal);
        expect(result.rows).toEqual([[literal]]);
        // Calls back to back, one at a time on each worker: each answer goes to its own call (several frames in one read
        // are the FrameReader test's, above).
        const answers = await Promise.all(
          [1, 2, 3].map((value) => engine.query({ sql: 'SELECT ? AS value', params: [value], maxRows: 1 }, signal)),
        );
        expect(answers.map((answer) => answer.rows)).toEqual([[[1]], [[2]], [[3]]]);
      } finally {
        await engine.close();
      }
    });
  });
});
