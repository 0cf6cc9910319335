import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { ToolError } from '@mcpkit/server-kit';
import type { Scope, WriteTarget } from './paths.js';

const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Writes a whole file atomically: a temporary file is created exclusively (never following a link) next to the
 * target, checked by descriptor, filled, flushed, given the old file's mode, then renamed over the target. Readers
 * see the old or the new content, never a mix; a hard link's other names keep the old content.
 */
export async function writeAtomically(
  scope: Scope,
  target: WriteTarget,
  content: string | Uint8Array,
  requested: string,
): Promise<void> {
  const temporary = path.join(
    target.directory,
    `.${path.basename(target.path).slice(0, 100)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(temporary, createFlags, target.existing ? target.existing.mode & 0o7777 : 0o666);
  } catch (error) {
    throw new ToolError(`Cannot write ${requested}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  try {
    try {
      await scope.verifyDescriptor(handle.fd, temporary, requested);
      await handle.writeFile(content);
      if (target.existing) await handle.chmod(target.existing.mode & 0o7777);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target.path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    if (ToolError.isInstance(error)) throw error;
    throw new ToolError(`Cannot write ${requested}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
}
