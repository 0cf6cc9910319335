import { randomBytes } from 'node:crypto';
import {
  type AddClientAuthentication,
  createPrivateKeyJwtAuth,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthSettings } from '../../config/server-config.js';
import type { OpenAuthorizationPage } from './authorization-page.js';
import { type LoopbackRedirect, startLoopbackRedirect } from './loopback-redirect.js';
import { type SignInReason, SignInRequiredError } from './sign-in-required-error.js';
import type { TokenStore } from './token-store.js';

/** How a sign-in in the browser is allowed to happen; without it the provider only uses and refreshes saved tokens. */
export interface InteractiveSignIn {
  /** Shows the authorization page: the user's browser, or a stand-in that follows redirects. */
  open: OpenAuthorizationPage;
  /** How long to wait for the browser to come back (default 5 minutes). */
  timeoutMs?: number;
}

/** What the provider needs: the server, where credentials live, the config's `oauth` block, and the sign-in mode. */
export interface HostOAuthProviderOptions {
  serverUrl: string;
  store: TokenStore;
  settings?: OAuthSettings;
  /** The host's name, shown by the authorization server on its consent page. */
  clientName?: string;
  interactive?: InteractiveSignIn;
}

/** How long a sign-in waits for the browser to come back, by default. */
export const defaultSignInTimeoutMs = 5 * 60_000;

/**
 * The host's side of the SDK's OAuth flow for one server: client identity (configured client, Client ID Metadata
 * Document URL, or the one registered dynamically and kept), tokens per issuer in the token store, PKCE verifier and
 * discovery state in memory, and the browser step through a loopback redirect. Silent unless `interactive` is given:
 * then anything that needs the user throws {@link SignInRequiredError} instead of opening a browser.
 */
export class HostOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private issuer: string | undefined;
  private loopback: LoopbackRedirect | undefined;
  private expectedState: string | undefined;
  private callback: Promise<URLSearchParams> | undefined;
  private tokensDropped = false;
  private clientId: string | undefined;
  /** Signs a client assertion into token requests, for a client that authenticates with a private key. */
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(private readonly options: HostOAuthProviderOptions) {
    const { clientId, privateKey, signingAlgorithm } = options.settings ?? {};
    if (clientId && privateKey) {
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: clientId,
        subject: clientId,
        privateKey,
        alg: signingAlgorithm ?? 'ES256',
      });
    }
  }

  /** Whether the host signs in as the client itself (client credentials), with no person and no browser. */
  private get machine(): boolean {
    return this.options.settings?.grantType === 'client_credentials';
  }

  /** Whether the browser step may run. */
  get interactive(): boolean {
    return this.options.interactive !== undefined;
  }

  get redirectUrl(): string | undefined {
    // No redirect at all tells the SDK to fetch tokens directly (prepareTokenRequest).
    if (this.machine) return undefined;
    const port = this.options.settings?.redirectPort;
    return this.loopback?.url ?? `http://127.0.0.1${port ? `:${port}` : ''}/callback`;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.settings?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.options.settings?.scopes;
    const secret = this.options.settings?.clientSecret;
    if (this.machine) {
      return {
        client_name: this.options.clientName ?? 'mcpkit-host',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: this.addClientAuthentication ? 'private_key_jwt' : 'client_secret_basic',
        ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
      };
    }
    return {
      client_name: this.options.clientName ?? 'mcpkit-host',
      redirect_uris: [this.redirectUrl ?? ''],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
      ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
    };
  }

  /** Starts the loopback listener before an authorization that may need the browser; a no-op when silent. */
  async prepare(): Promise<void> {
    if (!this.interactive || this.loopback || this.machine) return;
    const configured = this.options.settings?.redirectPort;
    // A client registered dynamically before was registered with its redirect URI's port: reuse it when free.
    const remembered = configured ?? (await this.registeredPort());
    try {
      this.loopback = await startLoopbackRedirect(remembered ?? 0);
    } catch (error) {
      if (configured !== undefined || remembered === undefined) throw error;
      this.loopback = await startLoopbackRedirect(0);
    }
  }

  private async registeredPort(): Promise<number | undefined> {
    const client = (await this.options.store.get(this.options.serverUrl))?.client;
    const uri = client && 'redirect_uris' in client ? client.redirect_uris?.[0] : undefined;
    const port = uri ? Number(new URL(uri).port) : Number.NaN;
    return Number.isInteger(port) && port > 0 ? port : undefined;
  }

  /** Stops the loopback listener. */
  async close(): Promise<void> {
    await this.loopback?.close();
    this.loopback = undefined;
  }

  /** The token request of the client credentials grant; undefined keeps the SDK's authorization-code request. */
  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.machine) return undefined;
    const parameters = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) parameters.set('scope', scope);
    return parameters;
  }

  state(): string {
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  private remember(context: OAuthClientInformationContext | undefined): string | undefined {
    if (context?.issuer) this.issuer = context.issuer;
    return context?.issuer;
  }

  async clientInformation(context?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const issuer = this.remember(context);
    const { clientId, clientSecret } = this.options.settings ?? {};
    if (clientId) {
      return {
        client_id: clientId,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        ...(issuer ? { issuer } : {}),
      };
    }
    const stored = (await this.options.store.get(this.options.serverUrl, issuer))?.client;
    // A client registered for another redirect URI (its port was taken this time) is registered again.
    const redirects = stored && 'redirect_uris' in stored ? stored.redirect_uris : undefined;
    if (stored && this.loopback && redirects && !redirects.includes(this.loopback.url)) return undefined;
    if (!stored && !this.interactive) throw this.signInRequired('never-signed-in');
    this.clientId = stored?.client_id;
    return stored;
  }

  /**
   * Whether the client identity in use was registered dynamically (not configured, not a metadata document URL), so
   * that registering again may cure a refusal: an authorization server such as oidc-provider holds a client to the
   * scope it registered with, which a step-up goes beyond.
   */
  get registeredDynamically(): boolean {
    return !this.options.settings?.clientId && this.clientId !== undefined && !/^https:/.test(this.clientId);
  }

  async saveClientInformation(
    client: StoredOAuthClientInformation,
    context?: OAuthClientInformationContext,
  ): Promise<void> {
    const issuer = this.remember(context) ?? client.issuer;
    this.clientId = client.client_id;
    if (!issuer || this.options.settings?.clientId) return;
    await this.options.store.update(this.options.serverUrl, issuer, (current) => ({ ...current, client }));
  }

  async tokens(context?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const issuer = this.remember(context);
    return (await this.options.store.get(this.options.serverUrl, issuer))?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, context?: OAuthClientInformationContext): Promise<void> {
    const issuer = this.remember(context) ?? tokens.issuer;
    if (!issuer) return;
    const now = Date.now();
    this.tokensDropped = false;
    await this.options.store.update(
      this.options.serverUrl,
      issuer,
      (current) => ({
        ...current,
        tokens,
        savedAt: now,
        ...(tokens.expires_in !== undefined ? { expiresAt: now + tokens.expires_in * 1000 } : { expiresAt: undefined }),
      }),
      true,
    );
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('No sign-in was started, so there is no PKCE verifier.');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
    const issuer = this.issuer;
    if (scope === 'verifier' || scope === 'discovery' || !issuer) return;
    if (scope === 'all' || scope === 'tokens') this.tokensDropped = true;
    await this.options.store.update(this.options.serverUrl, issuer, (current) => {
      const kept = { ...current };
      if (scope === 'all' || scope === 'tokens') {
        delete kept.tokens;
        delete kept.expiresAt;
      }
      if (scope === 'all' || scope === 'client') delete kept.client;
      return kept;
    });
  }

  /** Sends the browser to the authorization page and starts waiting for it at the loopback redirect. */
  async redirectToAuthorization(url: URL): Promise<void> {
    const interactive = this.options.interactive;
    if (!interactive || !this.loopback) {
      throw this.signInRequired(this.tokensDropped ? 'expired' : 'never-signed-in');
    }
    this.callback = this.loopback.nextCallback(interactive.timeoutMs ?? defaultSignInTimeoutMs);
    // Whatever happens to the waiting promise before it is awaited must not count as unhandled.
    this.callback.catch(() => {});
    await interactive.open(url);
  }

  /**
   * The authorization response the browser brought back, once the `state` it carries is the one sent (a response to
   * another request is refused before anything in it is used).
   */
  async authorizationResponse(): Promise<URLSearchParams> {
    const callback = this.callback;
    this.callback = undefined;
    if (!callback) throw new Error('No sign-in is under way.');
    const query = await callback;
    if (this.expectedState === undefined || query.get('state') !== this.expectedState) {
      throw new Error('The sign-in response does not belong to this sign-in (its state differs); it was ignored.');
    }
    return query;
  }

  /** The error to throw when the user must sign in and the connection may not ask. */
  signInRequired(reason: SignInReason): SignInRequiredError {
    return new SignInRequiredError(this.options.serverUrl, reason);
  }
}
