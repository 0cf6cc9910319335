import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/tools/free-port.mjs';
import { type OAuthProvider, startOAuthProvider } from '../../../scripts/tools/oauth-provider.mjs';
import { allowTools, audit, createServer, defineTool, type HttpListening, rateLimit, serveHttp } from '../src/index.js';
import { modernCall } from './support/modern-call.js';

// The built-in middleware keyed by a verified token: a kit server as an OAuth protected resource (a real
// authorization server on loopback), called in the 2026-07-28 era, which has no sessions to tell callers apart.
const clients = ['alice', 'bob'].map((id) => ({
  client_id: id,
  client_secret: `${id}-secret-0123456789abcdef`,
  grant_types: ['client_credentials'],
  redirect_uris: [],
  response_types: [],
}));

let provider: OAuthProvider;
let listening: HttpListening;
let url: string;
const lines: string[] = [];

const tokenFor = (clientId: string, scope: string) =>
  provider.clientCredentialsToken({
    clientId,
    clientSecret: `${clientId}-secret-0123456789abcdef`,
    resource: url,
    scope,
  });

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  provider = await startOAuthProvider({ clients, resources: { [url]: { scopes: ['notes:read', 'notes:admin'] } } });
  const server = createServer({
    name: 'notes',
    version: '1',
    logLevel: 'emergency',
    tools: [
      defineTool({ name: 'read_notes', description: 'Reads notes.', handler: () => 'notes' }),
      defineTool({ name: 'drop_notes', description: 'Drops every note.', handler: () => 'dropped' }),
    ],
    middleware: [
      audit({ sink: (line) => lines.push(line) }),
      rateLimit({ limit: 3, intervalMs: 60_000 }),
      allowTools({ '*': ['read_*'], 'notes:admin': ['drop_*'] }),
    ],
  });
  listening = await serveHttp(server, { port, auth: { issuer: provider.issuer, scopes: ['notes:read'] } });
}, 30_000);

afterAll(async () => {
  await listening?.close();
  await provider?.close();
});

const call = async (token: string, name: string) => {
  const answer = await modernCall(
    url,
    'tools/call',
    { name, arguments: {} },
    { headers: { authorization: `Bearer ${token}` } },
  );
  const result = answer.message?.result as { isError?: boolean; content: { text: string }[] } | undefined;
  return { isError: result?.isError === true, text: result?.content[0]?.text ?? '' };
};

describe('middleware with a verified caller', () => {
  it('keeps a rate-limit bucket per token subject, allows tools by the token’s scopes, and audits who called', async () => {
    const alice = await tokenFor('alice', 'notes:read');
    const bob = await tokenFor('bob', 'notes:read notes:admin');

    const aliceReads = await Promise.all(Array.from({ length: 5 }, () => call(alice, 'read_notes')));
    expect(aliceReads.filter((result) => !result.isError)).toHaveLength(3);
    expect(aliceReads.find((result) => result.isError)?.text).toMatch(/^Too many calls to the tool "read_notes"/);

    // bob has buckets of his own, and the scope that opens drop_notes
    expect(await call(bob, 'read_notes')).toEqual({ isError: false, text: 'notes' });
    expect(await call(bob, 'drop_notes')).toEqual({ isError: false, text: 'dropped' });
    expect(await call(alice, 'drop_notes')).toEqual({
      isError: true,
      text: 'The tool "drop_notes" needs a token with the scope "notes:admin".',
    });

    const records = lines.map((line) => JSON.parse(line) as { caller: Record<string, unknown>; outcome: string });
    expect(records.find((record) => record.caller.subject === 'bob')?.caller).toEqual({
      key: 'subject:bob',
      subject: 'bob',
      clientId: 'bob',
      scopes: ['notes:read', 'notes:admin'],
      client: 'raw-modern',
    });
    expect(lines.join('\n')).not.toContain(alice);
    expect(lines.join('\n')).not.toContain(bob);
  });
});
