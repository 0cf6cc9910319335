// A real OAuth 2.1 / OpenID authorization server for tests: oidc-provider (a certified OpenID provider from the npm
// registry) on loopback, issuing JWT access tokens per resource (RFC 8707) for the resource servers it is told about.
// Interactions approve themselves (the test user signs in and consents to whatever was asked), so a client can go
// through the whole authorization-code flow with an HTTP client playing the browser. Test-only: in-memory storage,
// keys generated per run.
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider, { errors } from 'oidc-provider';

/**
 * Starts the provider on 127.0.0.1 (a free port unless `port` is given).
 * @param {import('./oauth-provider.d.mts').OAuthProviderOptions} options
 * @returns {Promise<import('./oauth-provider.d.mts').OAuthProvider>}
 */
export async function startOAuthProvider(options = {}) {
  const resources = options.resources ?? {};
  const accountId = options.accountId ?? 'test-user';
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-signing-key', alg: 'ES256', use: 'sig' };

  const listener = createServer();
  await new Promise((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 0, '127.0.0.1', () => resolve(undefined));
  });
  const issuer = `http://127.0.0.1:${listener.address().port}`;
  const resourceScopes = [...new Set(Object.values(resources).flatMap((resource) => resource.scopes ?? []))];

  const provider = new Provider(issuer, {
    clients: options.clients ?? [],
    // The one signing key is an EC key, so ID tokens are signed with it too.
    clientDefaults: { id_token_signed_response_alg: 'ES256', grant_types: ['authorization_code', 'refresh_token'] },
    jwks: { keys: [signingKey] },
    scopes: ['openid', 'offline_access', ...resourceScopes],
    claims: { openid: ['sub'] },
    findAccount: (_context, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    pkce: { required: () => true },
    // A refresh token whenever the client may use one, not only with offline_access (as MCP clients expect).
    issueRefreshToken: (_context, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: options.accessTokenSeconds ?? 600,
      ClientCredentials: options.accessTokenSeconds ?? 600,
      AuthorizationCode: 60,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
      RefreshToken: 3600,
      IdToken: 600,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      registration: { enabled: options.dynamicRegistration ?? true },
      clientIdMetadataDocument: { enabled: options.clientIdMetadataDocuments ?? false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets the only one there is, when there is exactly one.
        defaultResource: (_context, _client, oneOf) =>
          oneOf?.[0] ?? (Object.keys(resources).length === 1 ? Object.keys(resources)[0] : undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: (_context, resourceIndicator) => {
          const resource = resources[resourceIndicator];
          if (!resource) throw new errors.InvalidTarget(`${resourceIndicator} is not a resource of this server.`);
          return {
            scope: (resource.scopes ?? []).join(' '),
            audience: resourceIndicator,
            accessTokenTTL: options.accessTokenSeconds ?? 600,
            ...(resource.tokenFormat === 'opaque'
              ? { accessTokenFormat: 'opaque' }
              : { accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } }),
          };
        },
      },
    },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
  });
  provider.on('server_error', (_context, error) => {
    process.stderr.write(`oauth provider: ${error.stack ?? error}\n`);
  });

  const callback = provider.callback();
  listener.on('request', (request, response) => {
    if (options.authorizationResponseIssuer !== undefined) {
      replaceIssuerOfRedirects(response, options.authorizationResponseIssuer);
    }
    if (request.url?.startsWith('/interaction/')) {
      approve(provider, accountId, request, response).catch((error) => {
        response.statusCode = 500;
        response.end(String(error));
      });
      return;
    }
    callback(request, response);
  });

  return {
    issuer,
    provider,
    signAccessToken(claims) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: signingKey.kid, typ: 'at+jwt' })
        .sign(privateKey);
    },
    async clientCredentialsToken({ clientId, clientSecret, resource, scope }) {
      const body = new URLSearchParams({ grant_type: 'client_credentials', resource });
      if (scope) body.set('scope', scope);
      const answer = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
        },
        body,
      });
      const json = await answer.json();
      if (!answer.ok) throw new Error(`The provider refused the token request: ${JSON.stringify(json)}`);
      return json.access_token;
    },
    close() {
      return new Promise((resolve) => {
        listener.close(() => resolve());
        listener.closeAllConnections();
      });
    },
  };
}

/**
 * Makes every redirect this response sends carry `iss=issuer` in place of the real one (RFC 9207), as a mixed-up or
 * malicious authorization server would.
 */
function replaceIssuerOfRedirects(response, issuer) {
  const setHeader = response.setHeader.bind(response);
  response.setHeader = (name, value) => {
    if (String(name).toLowerCase() === 'location' && typeof value === 'string' && /[?&]iss=/.test(value)) {
      const url = new URL(value);
      url.searchParams.set('iss', issuer);
      return setHeader(name, url.href);
    }
    return setHeader(name, value);
  };
}

/** Signs the test user in and consents to everything the client asked for, then sends the browser on its way. */
async function approve(provider, accountId, request, response) {
  const details = await provider.interactionDetails(request, response);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(request, response, { login: { accountId } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
  const missing = details.prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
