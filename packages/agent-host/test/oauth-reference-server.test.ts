import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/tools/free-port.mjs';
import { type OAuthProvider, startOAuthProvider } from '../../../scripts/tools/oauth-provider.mjs';
import { defaultCallTimeoutMs } from '../src/config/server-config.js';
import { followRedirects } from '../src/connection/oauth/authorization-page.js';
import { TokenStore } from '../src/connection/oauth/token-store.js';
import { ServerConnection } from '../src/connection/server-connection.js';
import { textOf } from './helpers.js';

// The database server's own command line as a protected resource (--http --auth-issuer, execute needing
// database:write), and the host signing in to it at the provider the server trusts.
const repository = fileURLToPath(new URL('../../..', import.meta.url));
const databaseBin = join(repository, 'servers/database/bin/mcpkit-database.js');
const built = existsSync(join(repository, 'servers/database/dist/main.js'));

let provider: OAuthProvider;
let server: ChildProcess | undefined;
let url: string;
let directory: string;

async function listening(address: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      await fetch(address, { method: 'GET' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${address} did not start listening.`);
}

describe.skipIf(!built)('signing in to mcpkit-database --http --auth-issuer', () => {
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'mcpkit-oauth-database-'));
    const file = join(directory, 'shop.sqlite');
    expect(spawnSync(process.execPath, [databaseBin, 'sample', file]).status).toBe(0);
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    provider = await startOAuthProvider({ resources: { [url]: { scopes: ['database:read', 'database:write'] } } });
    server = spawn(
      process.execPath,
      [databaseBin, file, '--allow-write', '--http', String(port)].concat([
        '--auth-issuer',
        provider.issuer,
        '--auth-scope',
        'database:read',
      ]),
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    await listening(url);
  });

  afterAll(async () => {
    server?.kill();
    await provider?.close();
  });

  it('reads with the scope it signed in with and steps up to write', async () => {
    const opened: URL[] = [];
    const follow = followRedirects();
    const connection = new ServerConnection(
      {
        name: 'shop',
        transport: { kind: 'http', url, headers: {}, mode: 'auto' },
        tools: {},
        callTimeoutMs: defaultCallTimeoutMs,
        startupTimeoutMs: 20_000,
        disabled: false,
      },
      {
        log: () => {},
        handlers: {},
        authorization: {
          store: new TokenStore(join(directory, 'tokens.json')),
          interactive: {
            open: async (address) => {
              opened.push(address);
              await follow(address);
            },
          },
        },
      },
    );
    try {
      await connection.start();
      // offline_access too, since the provider lists it and the host uses refresh tokens (SEP-2207).
      expect(opened[0]?.searchParams.get('scope')?.split(' ').sort()).toEqual(['database:read', 'offline_access']);
      const count = await connection.callTool('query', { sql: 'SELECT count(*) AS n FROM customers' });
      expect(count.isError, textOf(count)).not.toBe(true);
      const written = await connection.callTool('execute', {
        sql: "UPDATE customers SET name = name || '' WHERE id = 1",
      });
      expect(written.isError, textOf(written)).not.toBe(true);
      expect(opened.at(-1)?.searchParams.get('scope')?.split(' ')).toEqual(
        expect.arrayContaining(['database:read', 'database:write']),
      );
    } finally {
      await connection.close();
    }
  });
});
