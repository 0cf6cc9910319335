import { ToolError } from '@mcpkit/server-kit';

/** Says in a few words why a filesystem call failed ("does not exist", "is not readable..."). */
export function describeFilesystemError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'is not readable by the server (permission denied)';
  if (code === 'ELOOP') return 'goes through a symbolic link loop';
  if (code === 'ENOTDIR') return 'goes through something that is not a directory';
  if (code === 'ENAMETOOLONG') return 'is too long';
  return `cannot be used (${code ?? (error instanceof Error ? error.message : String(error))})`;
}

/** Runs a filesystem call, turning its failure into a sentence about `requested` for the model. */
export async function attempt<T>(requested: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    throw new ToolError(`${requested} ${describeFilesystemError(error)}.`);
  }
}
