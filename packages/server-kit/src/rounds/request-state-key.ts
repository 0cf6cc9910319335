import { KitError } from '../errors.js';

/** The environment variable that holds the key as base64 (at least 32 bytes once decoded). */
export const requestStateKeyVariable = 'MCPKIT_REQUEST_STATE_KEY';

const minimumBytes = 32;

/**
 * The configured request-state key: the server's option (a string of at least 32 bytes, or bytes), else the
 * environment variable `MCPKIT_REQUEST_STATE_KEY` (base64); undefined when neither is set, and then
 * {@link randomRequestStateKey} is drawn for this process (only this process can verify the state it issued, so
 * several instances behind a load balancer need a shared key). Throws a KitError for a key that is too short or not
 * base64. Checked when the server is created; the random key is drawn only when the first round needs one.
 */
export function configuredRequestStateKey(
  configured: string | Uint8Array | undefined,
  environment: Record<string, string | undefined> = {},
): Uint8Array | undefined {
  if (configured !== undefined) {
    const key = typeof configured === 'string' ? new TextEncoder().encode(configured) : Uint8Array.from(configured);
    if (key.byteLength < minimumBytes) {
      throw new KitError(
        'INVALID_OPTIONS',
        `requestState.key must be at least ${minimumBytes} bytes (it has ${key.byteLength}); use 32 random bytes.`,
      );
    }
    return key;
  }
  const encoded = environment[requestStateKeyVariable]?.trim();
  if (!encoded) return undefined;
  const key = Buffer.from(encoded, 'base64');
  const canonical = encoded.replace(/=+$/, '');
  if (key.toString('base64').replace(/=+$/, '') !== canonical || key.byteLength < minimumBytes) {
    throw new KitError(
      'INVALID_OPTIONS',
      `${requestStateKeyVariable} must be base64 of at least ${minimumBytes} bytes (for example the output of \`openssl rand -base64 32\`).`,
    );
  }
  return new Uint8Array(key);
}

/**
 * 32 random bytes from the Web Crypto generator (the global one: importing `node:crypto` for it would cost every
 * server's start, ADR 0020).
 */
export function randomRequestStateKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(minimumBytes));
}
