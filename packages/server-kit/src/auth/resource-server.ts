import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { createTokenVerifier, type TokenVerifierOptions } from './token-verifier.js';

/** `serveHttp({ auth })`: serve as an OAuth protected resource (RFC 9728) whose requests need a bearer token. */
export interface ResourceServerOptions extends Omit<TokenVerifierOptions, 'audience'> {
  /**
   * This server's resource URL, the audience its tokens must name. Default: the endpoint's URL, which is right when
   * clients reach the server at the address it listens on; give the public URL behind a proxy.
   */
  audience?: string;
  /** Scopes every request's token must carry (also advertised in the metadata and in challenges). */
  scopes?: string[];
  /** A name for the metadata document's `resource_name`. */
  resourceName?: string;
}

/** What a protected endpoint checks, and how it answers when a check fails. */
export interface ResourceServerGate {
  /** The RFC 9728 metadata paths this server answers (the root one and the endpoint-suffixed one). */
  readonly metadataPaths: readonly string[];
  /** The protected resource metadata document. */
  readonly metadata: Record<string, unknown>;
  /** Verifies the request's `Authorization` header: the token's identity, or the 401/403 answer to send. */
  authenticate(authorization: string | undefined): Promise<{ auth: AuthInfo } | { refusal: Response }>;
  /** The 403 `insufficient_scope` answer for a call that needs scopes the token lacks. */
  refuseScopes(needed: readonly string[], toolName: string): Response;
}

/** Creates the gate of a protected endpoint served at `endpointUrl`. */
export function createResourceServerGate(options: ResourceServerOptions, endpointUrl: string): ResourceServerGate {
  const audience = options.audience ?? endpointUrl;
  const resource = new URL(audience);
  const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  const metadataPaths = ['/.well-known/oauth-protected-resource', `/.well-known/oauth-protected-resource${path}`];
  const resourceMetadataUrl = `${new URL(endpointUrl).origin}/.well-known/oauth-protected-resource${path}`;
  const requiredScopes = options.scopes ?? [];
  const verifier = createTokenVerifier({ ...options, audience });
  const challenge = { resourceMetadataUrl, ...(requiredScopes.length > 0 ? { requiredScopes } : {}) };

  return {
    metadataPaths: [...new Set(metadataPaths)],
    metadata: {
      resource: audience,
      authorization_servers: [options.issuer],
      bearer_methods_supported: ['header'],
      ...(requiredScopes.length > 0 ? { scopes_supported: requiredScopes } : {}),
      ...(options.resourceName ? { resource_name: options.resourceName } : {}),
    },
    async authenticate(authorization) {
      try {
        const auth = await verifyBearerToken(authorization, {
          verifier,
          requiredScopes,
          resourceMetadataUrl,
          expectedResource: resource,
        });
        return { auth };
      } catch (error) {
        return { refusal: bearerAuthChallengeResponse(error, challenge) };
      }
    },
    refuseScopes(needed, toolName) {
      const scopes = [...new Set([...requiredScopes, ...needed])];
      const error = new OAuthError(
        OAuthErrorCode.InsufficientScope,
        `The tool ${toolName} needs the scope${needed.length === 1 ? '' : 's'} ${needed.join(' ')}, which this token does not grant.`,
      );
      return bearerAuthChallengeResponse(error, { resourceMetadataUrl, requiredScopes: scopes });
    },
  };
}
