import { assertSecureTokenEndpoint, discoverAuthorizationServerMetadata } from '@modelcontextprotocol/client';
import type { StoredCredentials } from './token-store.js';

/** What became of a sign-in's tokens at its authorization server. */
export type Revocation = 'revoked' | 'not-supported' | 'failed';

/**
 * Asks the authorization server to revoke a sign-in's refresh and access tokens (RFC 7009; done when the refresh
 * token, or the access token when there is none, is revoked), authenticating as the client that holds them (its
 * secret by HTTP Basic, else its id alone, as a public client). Never throws: signing out deletes the tokens on this
 * machine whatever the server says.
 */
export async function revokeTokens(
  issuer: string,
  credentials: StoredCredentials,
  fetch: typeof globalThis.fetch = globalThis.fetch,
): Promise<Revocation> {
  const { tokens, client } = credentials;
  if (!tokens || !client) return 'failed';
  try {
    const metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn: fetch });
    // RFC 8414 names it; the SDK's type of OpenID metadata does not, though the document has it.
    const endpoint = (metadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint;
    if (typeof endpoint !== 'string') return 'not-supported';
    // Tokens and secrets go over TLS only (loopback excepted), as to the token endpoint.
    assertSecureTokenEndpoint(endpoint);
    const secret = 'client_secret' in client ? client.client_secret : undefined;
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (secret) {
      const pair = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    const revoke = async (token: string, hint: string) => {
      const body = new URLSearchParams({ token, token_type_hint: hint });
      if (!secret) body.set('client_id', client.client_id);
      const answer = await fetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
      await answer.body?.cancel();
      return answer.ok;
    };
    // The refresh token is what lasts; an access token, often a JWT that the server cannot revoke
    // (unsupported_token_type), is asked for as well but expires on its own.
    const accessRevoked = await revoke(tokens.access_token, 'access_token');
    if (!(tokens.refresh_token ? await revoke(tokens.refresh_token, 'refresh_token') : accessRevoked)) return 'failed';
    return 'revoked';
  } catch {
    return 'failed';
  }
}
