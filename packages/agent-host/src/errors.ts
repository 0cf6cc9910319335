const hostErrorMarker = Symbol.for('mcpkit.HostError');

/** Codes of the failures the host reports to its user or to the program embedding it. */
export type HostErrorCode =
  | 'CONFIG_NOT_FOUND'
  | 'CONFIG_INVALID'
  | 'CONFIG_INPUT_MISSING'
  | 'CONFIG_VARIABLE_UNSET'
  | 'SERVER_START_FAILED'
  | 'SERVER_UNAVAILABLE'
  | 'SIGN_IN_REQUIRED'
  | 'UNKNOWN_SERVER'
  | 'RESOURCE_NOT_FOUND'
  | 'MODEL_NOT_CONFIGURED'
  | 'MODEL_REQUEST_FAILED'
  | 'MODEL_RESPONSE_INVALID'
  | 'SCRIPT_INVALID'
  | 'USAGE';

/** A failure of the host with a code a program can branch on and a message a person can act on. */
export class HostError extends Error {
  readonly [hostErrorMarker] = true;
  readonly code: HostErrorCode;

  constructor(code: HostErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HostError';
    this.code = code;
  }

  /** True for a HostError from any copy of the package (works across duplicates, unlike instanceof). */
  static isInstance(error: unknown): error is HostError {
    return typeof error === 'object' && error !== null && hostErrorMarker in error;
  }
}

// The SDK prefixes every McpError's message with "MCP error <code>: ", and a server built on it sends that message
// as is, so the client's McpError reads "MCP error -32602: MCP error -32602: ...". One prefix is enough.
const repeatedSdkPrefix = /(MCP error -?\d+: )(?:MCP error -?\d+: )+/g;

/** The message of anything thrown, for people, without the SDK's repeated `MCP error <code>:` prefix. */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(repeatedSdkPrefix, '$1');
}
