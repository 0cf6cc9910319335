import {
  auth,
  computeScopeUnion,
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  type FetchLike,
  isStrictScopeSuperset,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { HostOAuthProvider } from './host-oauth-provider.js';
import { SignInRequiredError } from './sign-in-required-error.js';

// A parameter of the authorization response shown to the user only when it is a plain error code: its other text is
// chosen by whoever sent the browser back, possibly an attacker in a mix-up.
const errorCode = /^[a-z_]{1,64}$/;

/**
 * A fetch for one MCP server that carries the saved bearer token and, on a 401 or a 403 `insufficient_scope`, runs
 * the SDK's authorization flow (`auth()`: resource and authorization server metadata, client identity, PKCE, RFC 8707
 * resource, RFC 9207 issuer check, refresh) with the host's provider, completes the browser step when the provider is
 * interactive, and sends the request once more. Concurrent requests that meet a 401 wait for one authorization.
 */
export function authorizingFetch(provider: HostOAuthProvider, serverUrl: URL, fetch: FetchLike): FetchLike {
  let authorizing: Promise<boolean> | undefined;
  // The scope asked for so far, so that a step-up keeps what earlier challenges asked for (SEP-2350).
  let askedScope: string | undefined;
  // The access token read from the store once, and again after each authorization (the store is a file).
  let bearer: string | undefined | null = null;

  // Whether a 401 came from an OAuth protected resource: its challenge points at its metadata, the host holds tokens
  // for it, or metadata is found where discovery looks. A server with a static bearer token is none of these, and
  // its 401 goes back to the caller as it came.
  const protectedByOAuth = async (resourceMetadataUrl: URL | undefined): Promise<boolean> => {
    if (resourceMetadataUrl || (await provider.tokens())) return true;
    const found = await discoverOAuthServerInfo(serverUrl, { fetchFn: fetch }).catch(() => undefined);
    return found?.resourceMetadata !== undefined || found?.authorizationServerMetadata !== undefined;
  };

  /** Authorizes after a 401 or 403 challenge; false when the server does not use OAuth. */
  const authorize = async (response: Response): Promise<boolean> => {
    const { resourceMetadataUrl, scope: challenged } = extractWWWAuthenticateParams(response);
    if (!(await protectedByOAuth(resourceMetadataUrl))) return false;
    const previous = await provider.tokens();
    const scope = computeScopeUnion(askedScope, response.status === 403 ? previous?.scope : undefined, challenged);
    askedScope = scope;
    // A 401 with a token in hand: the token no longer works, and the server may have moved to another authorization
    // server (SEP-2352), so discovery runs again; a 403 is a step-up at the same one.
    if (response.status === 401) await provider.invalidateCredentials('discovery');
    await provider.prepare();
    const options = {
      serverUrl,
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      ...(scope ? { scope } : {}),
      fetchFn: fetch,
    };
    const forceReauthorization = response.status === 403 && isStrictScopeSuperset(scope, previous?.scope);
    // A client registered for less scope than a step-up asks is registered again, once.
    for (let attempt = 0; ; attempt += 1) {
      // Refreshing cannot widen a token's scope (RFC 6749 §6): a step-up beyond it is a new authorization.
      const result = await auth(provider, { ...options, forceReauthorization });
      if (result === 'AUTHORIZED') return true;
      const query = await provider.authorizationResponse();
      const code = query.get('code');
      const iss = query.get('iss') ?? undefined;
      if (code) {
        // auth() checks `iss` against the authorization server's issuer before the code goes anywhere (RFC 9207).
        const exchanged = await auth(provider, { ...options, authorizationCode: code, ...(iss ? { iss } : {}) });
        if (exchanged !== 'AUTHORIZED') throw new UnauthorizedError('The sign-in did not complete.');
        return true;
      }
      const error = query.get('error') ?? '';
      if (error === 'invalid_scope' && attempt === 0 && provider.registeredDynamically) {
        await provider.invalidateCredentials('client');
        continue;
      }
      throw new UnauthorizedError(
        `The sign-in did not complete${errorCode.test(error) ? ` (the authorization server answered ${error})` : ''}.`,
      );
    }
  };

  const authorizeOnce = (response: Response): Promise<boolean> => {
    const stepUp = response.status === 403;
    authorizing ??= authorize(response)
      .catch((error: unknown) => {
        // A step-up that needs the browser, where none may open, is a sign-in for more permissions.
        if (stepUp && error instanceof SignInRequiredError) throw provider.signInRequired('more-scope');
        throw error;
      })
      .finally(() => {
        authorizing = undefined;
        bearer = null;
        void provider.close();
      });
    return authorizing;
  };

  return async (input, init) => {
    const send = async () => {
      const headers = new Headers(init?.headers);
      if (bearer === null) bearer = (await provider.tokens())?.access_token;
      if (bearer) headers.set('authorization', `Bearer ${bearer}`);
      return fetch(input, { ...init, headers });
    };
    // One authorization per kind of challenge and request: a 401 (sign in or refresh), then perhaps a 403 that asks
    // for more scope (step-up); the same challenge again means the new token did not help, and the request fails.
    const answered = new Set<number>();
    for (;;) {
      if (authorizing) await authorizing;
      const response = await send();
      if (!needsAuthorization(response)) return response;
      if (answered.has(response.status)) {
        await response.body?.cancel().catch(() => {});
        throw new UnauthorizedError(
          response.status === 403
            ? 'The server still refuses the request for lack of scope after a new sign-in.'
            : 'The server still refuses the token after a new sign-in.',
        );
      }
      answered.add(response.status);
      const body = await response.arrayBuffer();
      if (!(await authorizeOnce(response))) {
        return new Response(body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      }
    }
  };
}

function needsAuthorization(response: Response): boolean {
  if (response.status === 401) return true;
  return response.status === 403 && extractWWWAuthenticateParams(response).error === 'insufficient_scope';
}
