import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/tools/free-port.mjs';
import { type OAuthProvider, startOAuthProvider } from '../../../scripts/tools/oauth-provider.mjs';
import { binPath, makeFixture } from './fixtures.js';

// The database server's command line as an OAuth protected resource, against a real authorization server: reads need
// what every request needs, execute needs the write scope as well.
const client = {
  client_id: 'analyst',
  client_secret: 'analyst-secret-0123456789',
  grant_types: ['client_credentials'],
};

let provider: OAuthProvider;
let server: ChildProcess;
let url: string;
let fixture: ReturnType<typeof makeFixture>;

beforeAll(async () => {
  fixture = makeFixture();
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  provider = await startOAuthProvider({
    clients: [{ ...client, redirect_uris: [], response_types: [] }],
    resources: { [url]: { scopes: ['db:read', 'db:write'] } },
  });
  server = spawn(
    process.execPath,
    [
      binPath,
      fixture.file,
      '--allow-write',
      '--http',
      `127.0.0.1:${port}`,
      '--auth-issuer',
      provider.issuer,
      '--auth-scope',
      'db:read',
      '--auth-write-scope',
      'db:write',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${stderr}`)), 15_000);
    server.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Serving Streamable HTTP at')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}, 30_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  await provider?.close();
  fixture?.cleanup();
});

async function connect(scope: string) {
  const token = await provider.clientCredentialsToken({
    clientId: client.client_id,
    clientSecret: client.client_secret,
    resource: url,
    scope,
  });
  const mcp = new Client({ name: 'analyst', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return mcp;
}

const count = () => {
  const db = new Database(fixture.file, { readonly: true });
  const rows = db.prepare('SELECT count(*) FROM users').pluck().get();
  db.close();
  return rows;
};

describe('mcpkit-database --http --auth-issuer', () => {
  it('serves reads to a token with the read scope, and refuses execute without the write scope', async () => {
    const reader = await connect('db:read');
    const read = await reader.callTool({ name: 'query', arguments: { sql: 'SELECT count(*) AS n FROM users' } });
    expect(read.isError).toBeFalsy();
    const before = count();
    const refused = await reader
      .callTool({
        name: 'execute',
        arguments: {
          sql: "INSERT INTO users (full_name, email, role, created_at) VALUES ('Mallory', 'm@example.com', 'admin', '2026-01-01')",
        },
      })
      .then(
        () => 'ran',
        (error: Error) => error.message,
      );
    expect(refused).toMatch(/403|insufficient_scope|db:write/);
    expect(count()).toBe(before);
    await reader.close();
  });

  it('runs execute for a token that grants the write scope', async () => {
    const writer = await connect('db:read db:write');
    const before = count() as number;
    const result = await writer.callTool({
      name: 'execute',
      arguments: {
        sql: "INSERT INTO users (full_name, email, role, created_at) VALUES ('Ada', 'ada@example.com', 'engineer', '2026-01-01')",
      },
    });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(count()).toBe(before + 1);
    await writer.close();
  });
});
