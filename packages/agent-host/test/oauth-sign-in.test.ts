import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, defineTool, type HttpListening, serveHttp } from '@mcpkit/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freePort } from '../../../scripts/tools/free-port.mjs';
import { type OAuthProvider, startOAuthProvider } from '../../../scripts/tools/oauth-provider.mjs';
import type { OAuthSettings, ServerConfig } from '../src/config/server-config.js';
import { followRedirects } from '../src/connection/oauth/authorization-page.js';
import { TokenStore } from '../src/connection/oauth/token-store.js';
import { ServerConnection } from '../src/connection/server-connection.js';
import { textOf } from './helpers.js';

// The host signs in to a kit server protected by a real authorization server (oidc-provider on loopback, whose
// sign-in and consent approve themselves), with an HTTP client in the role of the browser.
const whoami = defineTool({
  name: 'whoami',
  description: 'Tells who is calling.',
  annotations: { readOnlyHint: true },
  handler: (_args, { auth }) => JSON.stringify({ subject: auth?.subject, scopes: auth?.scopes }),
});
const writeNote = defineTool({
  name: 'write_note',
  description: 'Writes a note.',
  input: z.object({ text: z.string() }),
  scopes: ['notes:write'],
  handler: ({ text }) => `wrote ${text}`,
});

const accessTokenSeconds = 2;
let provider: OAuthProvider;
let listening: HttpListening;
let serverUrl: string;
let redirectPort: number;

beforeAll(async () => {
  const port = await freePort();
  redirectPort = await freePort();
  serverUrl = `http://127.0.0.1:${port}/mcp`;
  provider = await startOAuthProvider({
    resources: { [serverUrl]: { scopes: ['notes:read', 'notes:write'] } },
    accessTokenSeconds,
    clients: [
      {
        client_id: 'host-app',
        client_secret: 'host-app-secret-0123456789',
        token_endpoint_auth_method: 'client_secret_post',
        redirect_uris: [`http://127.0.0.1:${redirectPort}/callback`],
      },
      {
        client_id: 'machine',
        client_secret: 'machine-secret-0123456789',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: 'elsewhere-app',
        token_endpoint_auth_method: 'none',
        redirect_uris: ['http://127.0.0.1:1/elsewhere'],
      },
    ],
  });
  const server = createServer({ name: 'notes', version: '1', tools: [whoami, writeNote], logLevel: 'emergency' });
  listening = await serveHttp(server, {
    port,
    auth: { issuer: provider.issuer, scopes: ['notes:read'], clockToleranceSeconds: 0 },
  });
});

afterAll(async () => {
  await listening?.close();
  await provider?.close();
});

/** A token file of its own for each test. */
function newStore(): TokenStore {
  return new TokenStore(join(mkdtempSync(join(tmpdir(), 'mcpkit-oauth-')), 'tokens.json'));
}

function config(oauth?: OAuthSettings, url = serverUrl): ServerConfig {
  return {
    name: 'notes',
    transport: { kind: 'http', url, headers: {}, mode: 'streamable' },
    tools: {},
    callTimeoutMs: 10_000,
    startupTimeoutMs: 10_000,
    ...(oauth ? { oauth } : {}),
    disabled: false,
  };
}

/** A connection whose browser follows redirects and counts how often it was opened; silent without `browser`. */
function connection(store: TokenStore, options: { browser?: boolean; oauth?: OAuthSettings } = {}) {
  const opened: URL[] = [];
  const follow = followRedirects();
  const made = new ServerConnection(config(options.oauth), {
    log: () => {},
    handlers: {},
    authorization: {
      store,
      ...(options.browser
        ? {
            interactive: {
              open: async (url: URL) => {
                opened.push(url);
                await follow(url);
              },
              timeoutMs: 5000,
            },
          }
        : {}),
    },
  });
  return { connection: made, opened };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('signing in to an OAuth-protected server', () => {
  it('runs the whole browser flow, steps up for a tool that needs more scope, refreshes an expired token', async () => {
    const store = newStore();
    const { connection: notes, opened } = connection(store, { browser: true });
    try {
      await notes.start();
      expect(notes.tools.map((tool) => tool.name).sort()).toEqual(['whoami', 'write_note']);
      expect(opened).toHaveLength(1);
      const authorization = opened[0] as URL;
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorization.searchParams.get('resource')).toBe(serverUrl);
      expect(authorization.searchParams.get('scope')).toContain('notes:read');
      const identity = JSON.parse(textOf(await notes.callTool('whoami', {})));
      expect(identity).toMatchObject({ subject: 'test-user' });

      // 403 insufficient_scope: a new authorization asks for the union of scopes, then the call goes through.
      // oidc-provider holds a registered client to the scope it registered with, so the host registers again.
      expect(textOf(await notes.callTool('write_note', { text: 'hello' }))).toBe('wrote hello');
      const stepUp = opened.at(-1);
      expect(stepUp?.searchParams.get('scope')?.split(' ')).toEqual(
        expect.arrayContaining(['notes:read', 'notes:write']),
      );

      // Expired: the server answers 401, and the refresh token gets a new access token without the browser.
      const before = (await store.get(serverUrl))?.tokens?.access_token;
      await sleep(accessTokenSeconds * 1000 + 500);
      const browserVisits = opened.length;
      expect(textOf(await notes.callTool('whoami', {}))).toContain('test-user');
      expect(opened).toHaveLength(browserVisits);
      const after = (await store.get(serverUrl))?.tokens?.access_token;
      expect(after).toBeDefined();
      expect(after).not.toBe(before);
    } finally {
      await notes.close();
    }
    // Saved per (server URL, issuer), readable by the user alone, and usable by a connection that may not ask.
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(store.file, 'utf8'));
    expect(Object.keys(saved.servers[serverUrl].issuers)).toEqual([provider.issuer]);
    const { connection: silent, opened: never } = connection(store);
    try {
      await silent.start();
      expect(textOf(await silent.callTool('whoami', {}))).toContain('test-user');
      expect(never).toHaveLength(0);
    } finally {
      await silent.close();
    }
  });

  it('gives the person in the browser more time than the startup allowance', async () => {
    const follow = followRedirects();
    // The person takes 2 s against a 1 s startup allowance, which still covers the listing after the sign-in on a
    // loaded machine (it was 500 ms against 1 s); the sign-in itself may take 10 s.
    const slow = new ServerConnection(
      { ...config(), startupTimeoutMs: 1000 },
      {
        log: () => {},
        handlers: {},
        authorization: {
          store: newStore(),
          interactive: {
            open: async (url) => {
              await sleep(2000);
              await follow(url);
            },
            timeoutMs: 10_000,
          },
        },
      },
    );
    try {
      await slow.start();
      expect(textOf(await slow.callTool('whoami', {}))).toContain('test-user');
    } finally {
      await slow.close();
    }
  });

  it('asks for a sign-in when there is no token and it may not open a browser', async () => {
    const { connection: notes } = connection(newStore());
    await expect(notes.start()).rejects.toMatchObject({
      code: 'SIGN_IN_REQUIRED',
      message: expect.stringMatching(/needs you to sign in: run `mcpkit-host auth login notes`/),
    });
  });

  it('refuses, without a browser, a tool that needs more scope than the sign-in granted', async () => {
    const store = newStore();
    const { connection: first } = connection(store, { browser: true });
    await first.start();
    await first.close();
    const { connection: silent } = connection(store);
    try {
      await silent.start();
      const result = await silent.callTool('write_note', { text: 'hello' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'Tool "write_note" of server "notes" was not called: the server asks for more permissions than the sign-in granted; sign in again (mcpkit-host auth login notes).',
      );
      expect(textOf(await silent.callTool('whoami', {}))).toContain('test-user');
    } finally {
      await silent.close();
    }
  });

  it('says "sign in again" when the refresh token was revoked', async () => {
    const store = newStore();
    const { connection: first } = connection(store, { browser: true });
    await first.start();
    await first.close();
    const refreshToken = (await store.get(serverUrl))?.tokens?.refresh_token;
    expect(refreshToken).toBeDefined();
    await (await provider.provider.RefreshToken.find(refreshToken as string))?.destroy();
    await sleep(accessTokenSeconds * 1000 + 500);
    const { connection: later, opened } = connection(store);
    await expect(later.start()).rejects.toMatchObject({
      code: 'SIGN_IN_REQUIRED',
      message: expect.stringMatching(/expired or was revoked; sign in again: run `mcpkit-host auth login notes`/),
    });
    expect(opened).toHaveLength(0);
  });

  it('signs in as a pre-registered client with its secret (client_secret_post) at its registered redirect port', async () => {
    const { connection: notes, opened } = connection(newStore(), {
      browser: true,
      oauth: { clientId: 'host-app', clientSecret: 'host-app-secret-0123456789', redirectPort },
    });
    try {
      await notes.start();
      expect(opened[0]?.searchParams.get('client_id')).toBe('host-app');
      expect(textOf(await notes.callTool('whoami', {}))).toContain('test-user');
    } finally {
      await notes.close();
    }
  });

  it('signs in as a machine with client credentials, with no browser', async () => {
    const { connection: notes, opened } = connection(newStore(), {
      oauth: { grantType: 'client_credentials', clientId: 'machine', clientSecret: 'machine-secret-0123456789' },
    });
    try {
      await notes.start();
      expect(JSON.parse(textOf(await notes.callTool('whoami', {})))).toMatchObject({ scopes: ['notes:read'] });
      expect(opened).toHaveLength(0);
    } finally {
      await notes.close();
    }
  });

  it('refuses a redirect URI the client did not register', async () => {
    const { connection: notes } = connection(newStore(), { browser: true, oauth: { clientId: 'elsewhere-app' } });
    await expect(notes.start()).rejects.toThrow(/did not send the browser back/);
  });
});

describe('an authorization server that answers with another issuer (RFC 9207)', () => {
  let mixedUp: OAuthProvider;
  let protectedByIt: HttpListening;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    mixedUp = await startOAuthProvider({
      resources: { [url]: { scopes: ['notes:read'] } },
      authorizationResponseIssuer: 'https://attacker.example',
    });
    const server = createServer({ name: 'notes', version: '1', tools: [whoami], logLevel: 'emergency' });
    protectedByIt = await serveHttp(server, { port, auth: { issuer: mixedUp.issuer, scopes: ['notes:read'] } });
  });

  afterAll(async () => {
    await protectedByIt?.close();
    await mixedUp?.close();
  });

  it('is refused before the code is redeemed', async () => {
    let tokenRequests = 0;
    mixedUp.provider.on('grant.success', () => {
      tokenRequests += 1;
    });
    const store = newStore();
    const follow = followRedirects();
    const notes = new ServerConnection(config(undefined, url), {
      log: () => {},
      handlers: {},
      authorization: { store, interactive: { open: follow, timeoutMs: 5000 } },
    });
    await expect(notes.start()).rejects.toThrow(/Issuer mismatch in authorization response \(RFC 9207\)/);
    expect(tokenRequests).toBe(0);
    expect((await store.get(url))?.tokens).toBeUndefined();
  });
});
