import { errorMessage } from './errors.js';

/**
 * A part of the kit's own code, loaded by the first request that needs it (ADR 0020), could not be loaded. Its message
 * is for the server's log: which part, the loader's message (a file path among it), and what to do. The request that
 * needed it answers with an internal error of the kit's own words instead ({@link loadingFailedAnswer}): a client
 * never sees the install's paths.
 */
export class KitCodeLoadError extends Error {}

/** The error for the log when the kit's `part` code could not be loaded. */
function kitCodeLoadError(part: string, error: unknown): KitCodeLoadError {
  // A missing file or one that does not parse is a broken install: mended, it takes a restart (a rebuild names the
  // chunks anew, and Node 20 keeps a parse failure). Any other failure (a read that failed: EMFILE, EIO) may pass:
  // Node 22 reads the file again on the next `import()`; Node 20 keeps that failure for the life of the process.
  const broken = (error as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND' || error instanceof SyntaxError;
  const remedy = broken
    ? 'reinstall or rebuild @mcpkit/server-kit, then restart the server'
    : 'a later request tries again; under Node 20, which remembers a failed read, restart the server once its cause is gone';
  return new KitCodeLoadError(`The kit's ${part} code could not be loaded (${errorMessage(error)}); ${remedy}.`, {
    cause: error,
  });
}

/**
 * `load`, once: its promise is kept while it loads and once it has, and forgotten when it fails, so that a later request
 * tries again; a failure rejects with a {@link KitCodeLoadError} for `part`.
 */
export function loadOnce<Module>(part: string, load: () => Promise<Module>): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw kitCodeLoadError(part, error);
    }));
}
