import { randomBytes } from 'node:crypto';
import { KitError } from '../errors.js';

/** The key that signs request state, and whether it was made up for this process only. */
export interface RequestStateKey {
  key: Uint8Array;
  /**
   * True when no key was configured and 32 random bytes were drawn: then only this process can verify the state it
   * issued, so several instances behind a load balancer need a shared key.
   */
  random: boolean;
}

/** The environment variable that holds the key as base64 (at least 32 bytes once decoded). */
export const requestStateKeyVariable = 'MCPKIT_REQUEST_STATE_KEY';

const minimumBytes = 32;

/**
 * Picks the request-state key: the server's option (a string of at least 32 bytes, or bytes), else the environment
 * variable `MCPKIT_REQUEST_STATE_KEY` (base64), else 32 random bytes for this process. Throws a KitError for a key
 * that is too short or not base64.
 */
export function resolveRequestStateKey(
  configured: string | Uint8Array | undefined,
  environment: Record<string, string | undefined> = {},
): RequestStateKey {
  if (configured !== undefined) {
    const key = typeof configured === 'string' ? new TextEncoder().encode(configured) : Uint8Array.from(configured);
    if (key.byteLength < minimumBytes) {
      throw new KitError(
        'INVALID_OPTIONS',
        `requestState.key must be at least ${minimumBytes} bytes (it has ${key.byteLength}); use 32 random bytes.`,
      );
    }
    return { key, random: false };
  }
  const encoded = environment[requestStateKeyVariable]?.trim();
  if (encoded) {
    const key = Buffer.from(encoded, 'base64');
    const canonical = encoded.replace(/=+$/, '');
    if (key.toString('base64').replace(/=+$/, '') !== canonical || key.byteLength < minimumBytes) {
      throw new KitError(
        'INVALID_OPTIONS',
        `${requestStateKeyVariable} must be base64 of at least ${minimumBytes} bytes (for example the output of \`openssl rand -base64 32\`).`,
      );
    }
    return { key: new Uint8Array(key), random: false };
  }
  return { key: new Uint8Array(randomBytes(minimumBytes)), random: true };
}
