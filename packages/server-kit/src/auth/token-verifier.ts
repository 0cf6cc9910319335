import { type AuthInfo, OAuthError, OAuthErrorCode, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { createRemoteJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';

/** How a kit server checks bearer tokens: against the issuer's keys, or by asking the issuer. */
export interface TokenVerifierOptions {
  /** The authorization server's issuer URL; its metadata is read from the well-known locations (RFC 8414, OIDC). */
  issuer: string;
  /** The audience tokens must be issued for: this server's resource URL (RFC 8707). */
  audience: string;
  /**
   * Check tokens with the issuer's introspection endpoint (RFC 7662) instead of as signed JWTs, authenticating as
   * this client (for opaque tokens, or to see revocations at once).
   */
  introspection?: { clientId: string; clientSecret: string };
  /** Leeway for expiry and not-before, in seconds (default 30). */
  clockToleranceSeconds?: number;
}

interface IssuerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
}

// Public-key algorithms only: an HMAC algorithm would let anyone who knows a public JWK sign tokens, and "none" signs
// nothing (jose refuses it anyway).
const algorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const invalid = (sentence: string) => new OAuthError(OAuthErrorCode.InvalidToken, sentence);

/** The well-known metadata locations of an issuer: RFC 8414 (path inserted), then OpenID Connect discovery. */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

async function readIssuerMetadata(issuer: string): Promise<IssuerMetadata> {
  for (const location of metadataUrls(issuer)) {
    let response: Response;
    try {
      response = await fetch(location, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      continue;
    }
    if (!response.ok) continue;
    const metadata = (await response.json().catch(() => undefined)) as IssuerMetadata | undefined;
    if (!metadata || typeof metadata.issuer !== 'string') continue;
    // RFC 8414 section 3.3: metadata that names another issuer must not be used (a mix-up or a spoofed server).
    if (metadata.issuer !== issuer) {
      throw new OAuthError(
        OAuthErrorCode.ServerError,
        `The authorization server's metadata at ${location} names the issuer ${metadata.issuer}, not the configured ${issuer}.`,
      );
    }
    return metadata;
  }
  throw new OAuthError(OAuthErrorCode.ServerError, `No authorization server metadata was found for ${issuer}.`);
}

function scopesOf(claims: Record<string, unknown>): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter(Boolean);
  if (Array.isArray(claims.scp)) return claims.scp.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

function audienceIncludes(audience: unknown, expected: string): boolean {
  return Array.isArray(audience) ? audience.includes(expected) : audience === expected;
}

function authInfoOf(token: string, claims: JWTPayload & Record<string, unknown>, audience: string): AuthInfo {
  const clientId = [claims.client_id, claims.azp, claims.sub].find((value) => typeof value === 'string') as string;
  return {
    token,
    clientId: clientId ?? '',
    scopes: scopesOf(claims),
    ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
    resource: new URL(audience),
    extra: { ...(typeof claims.sub === 'string' ? { subject: claims.sub } : {}), issuer: claims.iss },
  };
}

/**
 * Creates the verifier of a resource-server kit: signed JWTs checked against the issuer's JWKS (fetched once, again
 * when a token names a key not seen yet, as keys rotate), with issuer, audience, expiry and not-before; or the
 * issuer's introspection endpoint. The issuer's metadata is read on first use, so the server may start before it.
 */
export function createTokenVerifier(options: TokenVerifierOptions): OAuthTokenVerifier {
  const clockTolerance = options.clockToleranceSeconds ?? 30;
  let metadata: Promise<IssuerMetadata> | undefined;
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  const issuerMetadata = () => {
    metadata ??= readIssuerMetadata(options.issuer).catch((error: unknown) => {
      metadata = undefined; // tried again on the next request
      throw error;
    });
    return metadata;
  };

  const verifyJwt = async (token: string): Promise<AuthInfo> => {
    const { jwks_uri: jwksUri } = await issuerMetadata();
    if (!jwksUri) throw new OAuthError(OAuthErrorCode.ServerError, `${options.issuer} publishes no jwks_uri.`);
    keys ??= createRemoteJWKSet(new URL(jwksUri), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms,
        clockTolerance,
        requiredClaims: ['exp'],
      });
      return authInfoOf(token, payload as JWTPayload & Record<string, unknown>, options.audience);
    } catch (error) {
      throw invalid(jwtFailure(error, options.audience));
    }
  };

  const introspect = async (token: string, client: { clientId: string; clientSecret: string }): Promise<AuthInfo> => {
    const { introspection_endpoint: endpoint } = await issuerMetadata();
    if (!endpoint) {
      throw new OAuthError(OAuthErrorCode.ServerError, `${options.issuer} publishes no introspection_endpoint.`);
    }
    const credentials = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) {
      throw new OAuthError(OAuthErrorCode.ServerError, `Token introspection failed with HTTP ${response.status}.`);
    }
    const claims = (await response.json()) as Record<string, unknown>;
    if (claims.active !== true) throw invalid('The token is not active (expired, revoked or unknown).');
    if (claims.iss !== undefined && claims.iss !== options.issuer)
      throw invalid('The token was issued by another server.');
    if (!audienceIncludes(claims.aud, options.audience))
      throw invalid(`The token is not meant for ${options.audience}.`);
    const now = Date.now() / 1000;
    if (typeof claims.exp !== 'number' || claims.exp + clockTolerance < now) throw invalid('The token has expired.');
    if (typeof claims.nbf === 'number' && claims.nbf - clockTolerance > now)
      throw invalid('The token is not valid yet.');
    return authInfoOf(token, claims as JWTPayload & Record<string, unknown>, options.audience);
  };

  return {
    verifyAccessToken: (token) => (options.introspection ? introspect(token, options.introspection) : verifyJwt(token)),
  };
}

/** One sentence for why jose refused a token; never the token itself. */
function jwtFailure(error: unknown, audience: string): string {
  if (error instanceof joseErrors.JWTExpired) return 'The token has expired.';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return `The token is not meant for ${audience}.`;
    if (error.claim === 'iss') return 'The token was issued by another server.';
    if (error.claim === 'nbf') return 'The token is not valid yet.';
    return `The token's ${error.claim} claim is not acceptable.`;
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed)
    return 'The token is signed with an algorithm this server does not accept.';
  if (error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return "The token's signature does not match any key of the issuer.";
  }
  return 'The token is not a valid signed JWT.';
}
