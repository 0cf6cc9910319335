import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAtMost } from './bounded-read.js';

const directory = mkdtempSync(join(tmpdir(), 'mcpkit-bounded-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('readAtMost', () => {
  it('reads a file within the cap whole', async () => {
    const file = join(directory, 'small');
    writeFileSync(file, 'twelve bytes');
    const handle = await open(file, 'r');
    try {
      expect((await readAtMost(handle, 12))?.toString()).toBe('twelve bytes');
      expect((await readAtMost(handle, 100))?.toString()).toBe('twelve bytes');
      expect(await readAtMost(handle, 11)).toBeUndefined();
    } finally {
      await handle.close();
    }
  });

  it('refuses a file that grew past the cap after its size was checked, reading at most cap + 1 bytes', async () => {
    const file = join(directory, 'growing');
    const cap = 3 * 1024 * 1024;
    writeFileSync(file, Buffer.alloc(cap, 'a'));
    const handle = await open(file, 'r');
    try {
      expect((await handle.stat()).size).toBe(cap); // the check passes...
      appendFileSync(file, Buffer.alloc(5 * 1024 * 1024, 'b')); // ...then the file grows
      let bytesRead = 0;
      const read = handle.read.bind(handle);
      const counted = Object.assign(Object.create(handle), {
        read: async (...args: Parameters<typeof handle.read>) => {
          const result = await read(...args);
          bytesRead += result.bytesRead;
          return result;
        },
      });
      expect(await readAtMost(counted, cap)).toBeUndefined();
      expect(bytesRead).toBe(cap + 1);
    } finally {
      await handle.close();
    }
  });

  it('stops when the signal is aborted', async () => {
    const file = join(directory, 'cancelled');
    writeFileSync(file, 'x');
    const handle = await open(file, 'r');
    try {
      await expect(readAtMost(handle, 10, AbortSignal.abort())).rejects.toThrow(/cancelled/);
    } finally {
      await handle.close();
    }
  });
});
