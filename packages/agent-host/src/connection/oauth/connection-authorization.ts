import type { ServerConfig } from '../../config/server-config.js';
import { authorizingFetch } from './authorizing-fetch.js';
import { defaultSignInTimeoutMs, HostOAuthProvider, type InteractiveSignIn } from './host-oauth-provider.js';
import { SignInRequiredError } from './sign-in-required-error.js';
import { TokenStore } from './token-store.js';

/** How the connection of an HTTP server signs in when the server asks for OAuth. */
export interface ConnectionAuthorization {
  /** The token file (default: the platform's config directory, or MCPKIT_HOST_TOKEN_FILE). */
  store?: TokenStore;
  /** Allows the browser step; without it a server that needs a sign-in fails with SIGN_IN_REQUIRED. */
  interactive?: InteractiveSignIn;
}

/** The SignInRequiredError somewhere in an error's causes, when there is one. */
export function signInRequired(error: unknown): SignInRequiredError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (current instanceof SignInRequiredError) return current;
    current = current.cause;
  }
  return undefined;
}

/** How long a connect may wait for a person signing in in the browser (none when the browser step is not allowed). */
export function signInAllowanceMs(authorization: ConnectionAuthorization | undefined): number {
  const interactive = authorization?.interactive;
  return interactive ? (interactive.timeoutMs ?? defaultSignInTimeoutMs) : 0;
}

/** Whether a config sets its own Authorization header (then the host keeps to it and never signs in). */
export function hasAuthorizationHeader(headers: Record<string, string>): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
}

/** The fetch of a Streamable HTTP server, which signs in with OAuth when the server answers 401. */
export function authorizedFetch(
  config: ServerConfig,
  url: string,
  options: { authorization?: ConnectionAuthorization; clientInfo?: { name: string }; fetch?: typeof fetch },
): typeof fetch {
  const provider = new HostOAuthProvider({
    serverUrl: url,
    store: options.authorization?.store ?? new TokenStore(),
    ...(config.oauth ? { settings: config.oauth } : {}),
    ...(options.clientInfo ? { clientName: options.clientInfo.name } : {}),
    ...(options.authorization?.interactive ? { interactive: options.authorization.interactive } : {}),
  });
  return authorizingFetch(provider, new URL(url), options.fetch ?? globalThis.fetch) as typeof fetch;
}
