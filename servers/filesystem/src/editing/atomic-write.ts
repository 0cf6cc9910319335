import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { ToolError } from '@mcpkit/server-kit';
import type { Scope, WriteTarget } from '../confinement/scope.js';

const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Writes a whole file atomically: a temporary file is created exclusively (never following a link) next to the
 * target inside its parent's verified descriptor, filled, flushed, given the old file's mode, then renamed over the target. Readers
 * see the old or the new content, never a mix; a hard link's other names keep the old content.
 */
export async function writeAtomically(
  scope: Scope,
  target: WriteTarget,
  content: string | Uint8Array,
  requested: string,
): Promise<void> {
  const name = path.basename(target.path);
  const temporaryName = `.${name.slice(0, 100)}.${randomBytes(6).toString('hex')}.tmp`;
  const failed = (error: unknown) =>
    new ToolError(`Cannot write ${requested}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  await scope.throughDirectory(target.directory, async (via) => {
    const temporary = `${via}/${temporaryName}`;
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(temporary, createFlags, target.existing ? target.existing.mode & 0o7777 : 0o666);
    } catch (error) {
      throw failed(error);
    }
    try {
      try {
        await handle.writeFile(content);
        if (target.existing) await handle.chmod(target.existing.mode & 0o7777);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      // Renaming within the verified directory replaces the entry itself, never what a link there points to.
      await rename(temporary, `${via}/${name}`);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      if (ToolError.isInstance(error)) throw error;
      throw failed(error);
    }
  });
}
