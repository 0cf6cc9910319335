import type Provider from 'oidc-provider';

/** A resource server the provider issues tokens for, keyed by its resource URL (the tokens' audience). */
export interface OAuthResource {
  /** The scopes a client may ask for at this resource. */
  scopes?: string[];
  /** Signed JWTs (default), or opaque tokens that only introspection can check. */
  tokenFormat?: 'jwt' | 'opaque';
}

/** Options of {@link startOAuthProvider}. */
export interface OAuthProviderOptions {
  /** Resource servers by resource URL. */
  resources?: Record<string, OAuthResource>;
  /** Pre-registered clients, in oidc-provider's client metadata form. */
  clients?: Record<string, unknown>[];
  /** Lifetime of access tokens (default 600 s). */
  accessTokenSeconds?: number;
  /** Accept dynamic client registration at /reg (default true). */
  dynamicRegistration?: boolean;
  /** Accept URLs as client ids (Client ID Metadata Documents; default false). */
  clientIdMetadataDocuments?: boolean;
  /** The account that signs in at every interaction (default "test-user"). */
  accountId?: string;
  /**
   * Sends this `iss` in authorization responses instead of the provider's own issuer (RFC 9207), to test that clients
   * refuse a response from the wrong authorization server.
   */
  authorizationResponseIssuer?: string;
  /** Port to listen on (default: a free one). */
  port?: number;
}

/** A running provider. */
export interface OAuthProvider {
  /** The issuer, e.g. http://127.0.0.1:PORT (metadata at /.well-known/openid-configuration). */
  issuer: string;
  /** The oidc-provider instance, for tests that need to reach into it. */
  provider: Provider;
  /** A JWT access token for `resource` by the client-credentials grant. */
  clientCredentialsToken(request: {
    clientId: string;
    clientSecret: string;
    resource: string;
    scope?: string;
  }): Promise<string>;
  /**
   * Signs a token with the provider's own key, with `iss`, `iat` and a 10-minute `exp` unless `claims` says otherwise:
   * for tests of what a resource server accepts (expired, not yet valid, other audience, ...).
   */
  signAccessToken(claims: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** Starts an oidc-provider authorization server on loopback whose interactions approve themselves. */
export function startOAuthProvider(options?: OAuthProviderOptions): Promise<OAuthProvider>;
