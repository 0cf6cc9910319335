import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostOAuthProvider } from './host-oauth-provider.js';
import { SignInRequiredError } from './sign-in-required-error.js';
import { TokenStore } from './token-store.js';

const serverUrl = 'https://notes.example/mcp';
const newStore = () => new TokenStore(join(mkdtempSync(join(tmpdir(), 'mcpkit-provider-')), 'tokens.json'));

/** A provider whose "browser" visits the loopback redirect with the query `answer` builds from the sent state. */
function interactiveProvider(answer: (state: string) => string) {
  const provider = new HostOAuthProvider({
    serverUrl,
    store: newStore(),
    interactive: {
      timeoutMs: 2000,
      open: async () => {
        redirects.push(provider.redirectUrl ?? '');
        await fetch(`${provider.redirectUrl}?${answer(sentState)}`);
      },
    },
  });
  let sentState = '';
  const redirects: string[] = [];
  return {
    redirects,
    async signIn() {
      await provider.prepare();
      sentState = provider.state();
      await provider.redirectToAuthorization(new URL('https://as.example/authorize'));
      try {
        return await provider.authorizationResponse();
      } finally {
        await provider.close();
      }
    },
  };
}

describe('HostOAuthProvider', () => {
  it('takes the authorization response that carries the state it sent, at a loopback redirect', async () => {
    const { redirects, signIn } = interactiveProvider(
      (state) => `code=abc&state=${state}&iss=https%3A%2F%2Fas.example`,
    );
    const query = await signIn();
    expect(query.get('code')).toBe('abc');
    expect(query.get('iss')).toBe('https://as.example');
    expect(redirects).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)]);
  });

  it('ignores a response whose state is not the one it sent', async () => {
    const { signIn } = interactiveProvider(() => 'code=abc&state=forged');
    await expect(signIn()).rejects.toThrow(/does not belong to this sign-in/);
  });

  it('without a browser, asks for a sign-in instead of registering a client or redirecting', async () => {
    const provider = new HostOAuthProvider({ serverUrl, store: newStore() });
    await expect(provider.clientInformation({ issuer: 'https://as.example' })).rejects.toBeInstanceOf(
      SignInRequiredError,
    );
    await expect(provider.redirectToAuthorization(new URL('https://as.example/authorize'))).rejects.toThrow(
      'the server needs you to sign in',
    );
  });

  it('keeps tokens per issuer and says "sign in again" once they were dropped', async () => {
    const store = newStore();
    const provider = new HostOAuthProvider({ serverUrl, store });
    const context = { issuer: 'https://as.example' };
    await provider.saveTokens({ access_token: 'a', token_type: 'Bearer', expires_in: 60 }, context);
    expect(await provider.tokens()).toMatchObject({ access_token: 'a' });
    expect(await provider.tokens({ issuer: 'https://other.example' })).toBeUndefined();
    expect((await store.get(serverUrl))?.expiresAt).toBeGreaterThan(Date.now());
    // The SDK reads the tokens of the issuer at hand before it drops them (a refresh token it refused).
    expect(await provider.tokens(context)).toMatchObject({ access_token: 'a' });
    await provider.invalidateCredentials('tokens');
    expect(await provider.tokens()).toBeUndefined();
    await expect(provider.redirectToAuthorization(new URL('https://as.example/authorize'))).rejects.toThrow(
      'the sign-in expired or was revoked; sign in again',
    );
  });

  it('uses a configured client as it is, and a client credentials client needs no redirect', async () => {
    const configured = new HostOAuthProvider({
      serverUrl,
      store: newStore(),
      settings: { clientId: 'host', clientSecret: 's3cret' },
    });
    expect(await configured.clientInformation({ issuer: 'https://as.example' })).toEqual({
      client_id: 'host',
      client_secret: 's3cret',
      issuer: 'https://as.example',
    });
    expect(configured.prepareTokenRequest('a')).toBeUndefined();
    const machine = new HostOAuthProvider({
      serverUrl,
      store: newStore(),
      settings: { grantType: 'client_credentials', clientId: 'host', clientSecret: 's3cret' },
    });
    expect(machine.redirectUrl).toBeUndefined();
    expect(machine.prepareTokenRequest('a b')?.toString()).toBe('grant_type=client_credentials&scope=a+b');
  });
});
