import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KitError } from '../errors.js';
import { requestStateKeyVariable, resolveRequestStateKey } from './request-state-key.js';

describe('resolveRequestStateKey', () => {
  it('prefers the configured key, then the environment, then random bytes', () => {
    const configured = 'x'.repeat(32);
    const shared = randomBytes(32);
    expect(resolveRequestStateKey(configured, { [requestStateKeyVariable]: shared.toString('base64') })).toEqual({
      key: new TextEncoder().encode(configured),
      random: false,
    });
    expect(resolveRequestStateKey(undefined, { [requestStateKeyVariable]: shared.toString('base64') })).toEqual({
      key: new Uint8Array(shared),
      random: false,
    });
    const first = resolveRequestStateKey(undefined, {});
    const second = resolveRequestStateKey(undefined, {});
    expect(first.random).toBe(true);
    expect(first.key.byteLength).toBe(32);
    expect(Buffer.from(first.key).equals(Buffer.from(second.key))).toBe(false);
  });

  it('refuses a short key and an environment value that is not base64 of 32 bytes', () => {
    expect(() => resolveRequestStateKey('short')).toThrow(KitError);
    expect(() => resolveRequestStateKey(new Uint8Array(16))).toThrow(/at least 32 bytes/);
    expect(() =>
      resolveRequestStateKey(undefined, { [requestStateKeyVariable]: randomBytes(16).toString('base64') }),
    ).toThrow(/MCPKIT_REQUEST_STATE_KEY must be base64/);
    expect(() =>
      resolveRequestStateKey(undefined, { [requestStateKeyVariable]: 'not base64 at all!'.repeat(4) }),
    ).toThrow(KitError);
  });
});
