import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KitError } from '../errors.js';
import { configuredRequestStateKey, randomRequestStateKey, requestStateKeyVariable } from './request-state-key.js';

describe('configuredRequestStateKey', () => {
  it('prefers the configured key, then the environment, else none (a random key is drawn later)', () => {
    const configured = 'x'.repeat(32);
    const shared = randomBytes(32);
    expect(configuredRequestStateKey(configured, { [requestStateKeyVariable]: shared.toString('base64') })).toEqual(
      new TextEncoder().encode(configured),
    );
    expect(configuredRequestStateKey(undefined, { [requestStateKeyVariable]: shared.toString('base64') })).toEqual(
      new Uint8Array(shared),
    );
    expect(configuredRequestStateKey(undefined, {})).toBeUndefined();
    const first = randomRequestStateKey();
    const second = randomRequestStateKey();
    expect(first.byteLength).toBe(32);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
  });

  it('refuses a short key and an environment value that is not base64 of 32 bytes', () => {
    expect(() => configuredRequestStateKey('short')).toThrow(KitError);
    expect(() => configuredRequestStateKey(new Uint8Array(16))).toThrow(/at least 32 bytes/);
    expect(() =>
      configuredRequestStateKey(undefined, { [requestStateKeyVariable]: randomBytes(16).toString('base64') }),
    ).toThrow(/MCPKIT_REQUEST_STATE_KEY must be base64/);
    expect(() =>
      configuredRequestStateKey(undefined, { [requestStateKeyVariable]: 'not base64 at all!'.repeat(4) }),
    ).toThrow(KitError);
  });
});
