const toolErrorMarker = Symbol.for('mcpkit.ToolError');
const kitErrorMarker = Symbol.for('mcpkit.KitError');

/**
 * A failure the model should read and can act on. Thrown from a handler, it becomes an `isError` tool result whose
 * text is the message, so write the message as one clear sentence: what was wrong and what to do instead.
 */
export class ToolError extends Error {
  readonly [toolErrorMarker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolError';
  }

  /** True for a ToolError from any copy of the kit (works across package duplicates, unlike instanceof). */
  static isInstance(error: unknown): error is ToolError {
    return typeof error === 'object' && error !== null && toolErrorMarker in error;
  }
}

/** Codes of the mistakes a server author can make when declaring or wiring a server. */
export type KitErrorCode =
  | 'INVALID_NAME'
  | 'DUPLICATE_NAME'
  | 'DUPLICATE_URI'
  | 'INVALID_DEFINITION'
  | 'INVALID_RESULT'
  | 'SERVER_CLOSED'
  | 'INVALID_OPTIONS';

/** A developer mistake in using the kit, thrown at definition time (not at the first call). */
export class KitError extends Error {
  readonly [kitErrorMarker] = true;
  readonly code: KitErrorCode;

  constructor(code: KitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KitError';
    this.code = code;
  }

  /** True for a KitError from any copy of the kit. */
  static isInstance(error: unknown): error is KitError {
    return typeof error === 'object' && error !== null && kitErrorMarker in error;
  }
}

/** The message of anything thrown: an Error's message, else its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
