import { ToolError } from '@mcpkit/server-kit';
import { describe, expect, it } from 'vitest';
import { attempt, describeFilesystemError } from './filesystem-errors.js';

function failure(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed`), { code });
}

describe('filesystem errors', () => {
  it('says in a few words why a call failed, with the code when it has no sentence of its own', () => {
    expect(describeFilesystemError(failure('ENOENT'))).toBe('does not exist');
    expect(describeFilesystemError(failure('EPERM'))).toBe('is not readable by the server (permission denied)');
    expect(describeFilesystemError(failure('EIO'))).toBe('cannot be used (EIO)');
    expect(describeFilesystemError(new Error('plain'))).toBe('cannot be used (plain)');
  });

  it('turns a failed call into a sentence about the requested path, and lets a ToolError through as it is', async () => {
    expect(await attempt('a.txt', Promise.resolve(1))).toBe(1);
    await expect(attempt('a.txt', Promise.reject(failure('ENOENT')))).rejects.toThrow(
      new ToolError('a.txt does not exist.'),
    );
    const own = new ToolError('Refused: a.txt is a socket.');
    await expect(attempt('a.txt', Promise.reject(own))).rejects.toBe(own);
  });
});
