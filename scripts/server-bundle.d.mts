/** The rolldown options of a server's build (ADR 0021): pass them to rolldown, and `output` to the build's write. */
export interface ServerBundleOptions {
  input: Record<string, string>;
  output: { dir: string; [option: string]: unknown };
  [option: string]: unknown;
}

/**
 * The rolldown options of the server whose rolldown.config.mjs has the URL `configUrl`; `MagicString` is rolldown's
 * `RolldownMagicString`. `entries` names more modules of `src/` (without `.ts`) to emit at their own path.
 */
export function serverBundle(
  configUrl: string,
  MagicString: unknown,
  options?: { entries?: string[] },
): ServerBundleOptions;
