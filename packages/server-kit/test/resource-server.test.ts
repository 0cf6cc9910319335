import { createServer as createHttpServer } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freePort } from '../../../scripts/tools/free-port.mjs';
import { type OAuthProvider, startOAuthProvider } from '../../../scripts/tools/oauth-provider.mjs';
import { createServer, defineTool, type HttpListening, serveHttp } from '../src/index.js';
import { modernCall } from './support/modern-call.js';

// A kit server as an OAuth protected resource, against a real authorization server (oidc-provider on loopback).
const whoami = defineTool({
  name: 'whoami',
  description: 'Tells who is calling.',
  annotations: { readOnlyHint: true },
  handler: (_args, { auth }) => JSON.stringify(auth ?? null),
});
const write = defineTool({
  name: 'write_note',
  description: 'Writes a note.',
  input: z.object({ text: z.string() }),
  scopes: ['notes:write'],
  handler: ({ text }) => `wrote ${text}`,
});

const clients = [
  { client_id: 'reader', client_secret: 'reader-secret-0123456789', grant_types: ['client_credentials'] },
  { client_id: 'other', client_secret: 'other-secret-0123456789', grant_types: ['client_credentials'] },
  { client_id: 'resource-server', client_secret: 'rs-secret-0123456789abc', grant_types: ['client_credentials'] },
].map((client) => ({ ...client, redirect_uris: [], response_types: [] }));

let provider: OAuthProvider;
let listening: HttpListening;
let introspecting: HttpListening;
let audience: string;
const elsewhere = 'http://127.0.0.1:1/elsewhere';

const tokenFor = (clientId: string, scope: string, resource = audience) =>
  provider.clientCredentialsToken({
    clientId,
    clientSecret: clients.find((client) => client.client_id === clientId)?.client_secret ?? '',
    resource,
    scope,
  });

beforeAll(async () => {
  const port = await freePort();
  const introspectionPort = await freePort();
  audience = `http://127.0.0.1:${port}/mcp`;
  const scopes = ['notes:read', 'notes:write'];
  provider = await startOAuthProvider({
    clients,
    resources: {
      [audience]: { scopes },
      [`http://127.0.0.1:${introspectionPort}/mcp`]: { scopes, tokenFormat: 'opaque' },
      [elsewhere]: { scopes },
    },
  });
  const build = () => createServer({ name: 'notes', version: '1', tools: [whoami, write], logLevel: 'emergency' });
  listening = await serveHttp(build(), { port, auth: { issuer: provider.issuer, scopes: ['notes:read'] } });
  introspecting = await serveHttp(build(), {
    port: introspectionPort,
    auth: {
      issuer: provider.issuer,
      introspection: { clientId: 'resource-server', clientSecret: 'rs-secret-0123456789abc' },
    },
  });
}, 30_000);

afterAll(async () => {
  await listening?.close();
  await introspecting?.close();
  await provider?.close();
});

async function connect(url: string, token: string) {
  const client = new Client({ name: 'caller', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

const post = (url: string, token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });

const toolsList = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('serveHttp as an OAuth protected resource', () => {
  it('publishes its protected resource metadata at both well-known locations', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const answer = await fetch(new URL(path, audience));
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({
        resource: audience,
        authorization_servers: [provider.issuer],
        bearer_methods_supported: ['header'],
        scopes_supported: ['notes:read'],
      });
    }
  });

  it('answers a request without a token with 401 and a challenge pointing at the metadata', async () => {
    const answer = await post(audience, undefined, initialize);
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(
      `resource_metadata="${new URL(audience).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(challenge).toContain('scope="notes:read"');
  });

  it("serves a valid token in both eras, and hands the caller's identity to the handler", async () => {
    const token = await tokenFor('reader', 'notes:read');
    const { client } = await connect(audience, token);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '')).toEqual({
      subject: 'reader',
      clientId: 'reader',
      scopes: ['notes:read'],
      expiresAt: expect.any(Number),
    });
    await client.close();
    const modern = await modernCall(
      audience,
      'tools/call',
      { name: 'whoami', arguments: {} },
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(modern.message?.result).toMatchObject({
      content: [{ text: expect.stringContaining('"clientId":"reader"') }],
    });
  });

  it('refuses a tool whose scope the token lacks with 403 insufficient_scope naming every scope needed', async () => {
    const reader = await tokenFor('reader', 'notes:read');
    const call = { name: 'write_note', arguments: { text: 'hi' } };
    const refused = await modernCall(audience, 'tools/call', call, { headers: { authorization: `Bearer ${reader}` } });
    expect(refused.status).toBe(403);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="notes:read notes:write"');
    expect(JSON.stringify(refused.message)).not.toContain('wrote');
    const writer = await tokenFor('reader', 'notes:read notes:write');
    const allowed = await modernCall(audience, 'tools/call', call, { headers: { authorization: `Bearer ${writer}` } });
    expect(allowed.message?.result).toMatchObject({ content: [{ text: 'wrote hi' }] });
  });

  it('refuses a token without the scope every request needs with 403', async () => {
    const token = await tokenFor('reader', 'notes:write');
    const answer = await post(audience, token, toolsList, {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('refuses forged, foreign and stale tokens with 401 and no data', async () => {
    const now = Math.floor(Date.now() / 1000);
    const base = { sub: 'reader', client_id: 'reader', aud: audience, scope: 'notes:read' };
    const { privateKey } = await generateKeyPair('ES256');
    const unsigned = (claims: Record<string, unknown>) =>
      `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    const { privateKey: hmacLike } = await generateKeyPair('RS256', { extractable: true });
    const attacks: Record<string, string> = {
      'another audience': await tokenFor('reader', 'notes:read', elsewhere),
      'another key, same kid': await new SignJWT({ ...base, iss: provider.issuer, exp: now + 600 })
        .setProtectedHeader({ alg: 'ES256', kid: 'test-signing-key' })
        .sign(privateKey),
      'alg none': unsigned({ ...base, iss: provider.issuer, exp: now + 600 }),
      'HS256 keyed with the public JWK': await new SignJWT({ ...base, iss: provider.issuer, exp: now + 600 })
        .setProtectedHeader({ alg: 'HS256', kid: 'test-signing-key' })
        .sign(new TextEncoder().encode(JSON.stringify(await exportJWK(hmacLike)))),
      expired: await provider.signAccessToken({ ...base, iat: now - 7200, exp: now - 3600 }),
      'not valid yet': await provider.signAccessToken({ ...base, nbf: now + 3600 }),
      'without expiry': await provider.signAccessToken({ ...base, exp: undefined }),
      'another issuer': await provider.signAccessToken({ ...base, iss: 'https://issuer.example' }),
      garbage: 'not-a-token',
    };
    for (const [attack, token] of Object.entries(attacks)) {
      const answer = await post(audience, token, initialize);
      expect(answer.status, attack).toBe(401);
      expect(answer.headers.get('www-authenticate'), attack).toContain('error="invalid_token"');
      const text = await answer.text();
      expect(text, attack).not.toContain('serverInfo');
      expect(text, attack).not.toContain(token.slice(0, 40));
    }
  });

  it("does not let another caller's token use a session", async () => {
    const { transport, client } = await connect(audience, await tokenFor('reader', 'notes:read'));
    const sessionId = transport.sessionId ?? '';
    expect(sessionId).not.toBe('');
    const other = await tokenFor('other', 'notes:read');
    const answer = await post(audience, other, toolsList, {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('whoami');
    await client.close();
  });

  it('checks tokens by introspection when configured, and sees a revocation at once', async () => {
    const url = introspecting.url;
    const token = await tokenFor('reader', 'notes:read', url);
    const { client } = await connect(url, token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('whoami');
    await client.close();
    const revoked = await fetch(`${provider.issuer}/token/revocation`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('reader:reader-secret-0123456789').toString('base64')}`,
      },
      body: new URLSearchParams({ token }),
    });
    expect(revoked.status).toBe(200);
    const answer = await post(url, token, initialize);
    expect(answer.status).toBe(401);
  });

  it('refuses every token when the authorization server names another issuer in its metadata', async () => {
    // A metadata server that claims to be someone else (a mix-up attack): nothing it signs may be accepted.
    const impostor = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ issuer: provider.issuer, jwks_uri: `${provider.issuer}/jwks` }));
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const address = impostor.address() as { port: number };
    const issuer = `http://127.0.0.1:${address.port}`;
    const port = await freePort();
    const server = createServer({ name: 'mixed', version: '1', tools: [whoami], logLevel: 'emergency' });
    const mixed = await serveHttp(server, { port, auth: { issuer } });
    try {
      const token = await provider.signAccessToken({ iss: issuer, aud: mixed.url, sub: 'x', client_id: 'x' });
      const answer = await post(mixed.url, token, initialize);
      expect(answer.status).toBe(500);
      expect(await answer.text()).not.toContain('serverInfo');
    } finally {
      await mixed.close();
      impostor.close();
    }
  });
});
