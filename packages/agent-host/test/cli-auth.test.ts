import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, defineTool, type HttpListening, serveHttp } from '@mcpkit/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/tools/free-port.mjs';
import { type OAuthProvider, startOAuthProvider } from '../../../scripts/tools/oauth-provider.mjs';
import { followRedirects } from '../src/connection/oauth/authorization-page.js';
import { bin, cli, workspace } from './cli-helpers.js';

// `mcpkit-host auth login|status|logout` against a kit server protected by a real authorization server; with
// BROWSER=none the command prints the address, and the test plays the browser.
const whoami = defineTool({
  name: 'whoami',
  description: 'Tells who is calling.',
  annotations: { readOnlyHint: true },
  handler: (_args, { auth }) => `subject ${auth?.subject}`,
});

let provider: OAuthProvider;
let listening: HttpListening;
let directory: string;
let tokenFile: string;
let environment: Record<string, string>;

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  provider = await startOAuthProvider({ resources: { [url]: { scopes: ['notes:read'] } } });
  const server = createServer({ name: 'notes', version: '1', tools: [whoami], logLevel: 'emergency' });
  listening = await serveHttp(server, { port, auth: { issuer: provider.issuer, scopes: ['notes:read'] } });
  directory = workspace({ mcpServers: { notes: { url } } });
  tokenFile = join(mkdtempSync(join(tmpdir(), 'mcpkit-cli-auth-')), 'tokens.json');
  environment = { MCPKIT_HOST_TOKEN_FILE: tokenFile, BROWSER: 'none' };
});

afterAll(async () => {
  await listening?.close();
  await provider?.close();
});

/**
 * Runs `auth login` and follows the address it prints, as a browser would (`forged`: with another `state` in it, as
 * an attacker's link would have, which the host must refuse).
 */
function login(forged = false): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'auth', 'login', 'notes'], {
      cwd: directory,
      env: { ...process.env, ...environment },
    });
    let stdout = '';
    let stderr = '';
    let followed = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const address = /open this address in a browser:\n {2}(\S+)/.exec(stderr)?.[1];
      if (address && !followed) {
        followed = true;
        const url = new URL(address);
        if (forged) url.searchParams.set('state', 'forged');
        followRedirects()(url).catch(reject);
      }
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('mcpkit-host auth', () => {
  it('signs in, uses the saved sign-in without asking, shows it without its tokens, and signs out', async () => {
    expect((await cli(['auth', 'status', 'notes'], { cwd: directory, env: environment })).stdout).toBe(
      'notes: not signed in\n',
    );

    const signedIn = await login();
    expect(signedIn.stderr).toMatch(/open this address in a browser:\n {2}http:\/\/127\.0\.0\.1:\d+\/auth\?/);
    expect(signedIn.stdout).toBe(`Signed in to "notes" at ${provider.issuer} (scope: notes:read).\n`);
    expect(signedIn.code).toBe(0);
    const saved = JSON.parse(readFileSync(tokenFile, 'utf8')) as {
      servers: Record<string, { issuers: Record<string, { tokens: { access_token: string; refresh_token: string } }> }>;
    };
    const [kept] = Object.values(saved.servers).flatMap((server) => Object.values(server.issuers));
    const accessToken = kept?.tokens.access_token ?? 'missing';
    const refreshToken = kept?.tokens.refresh_token ?? 'missing';
    expect(accessToken).not.toBe('missing');

    const call = await cli(['call', 'notes', 'whoami'], { cwd: directory, env: environment });
    expect(call.stdout).toContain('subject test-user');
    const status = await cli(['auth', 'status', '--json'], { cwd: directory, env: environment });
    expect(JSON.parse(status.stdout)).toEqual([
      expect.objectContaining({ server: 'notes', signedIn: true, issuer: provider.issuer, renewable: true }),
    ]);
    for (const output of [signedIn.stdout, signedIn.stderr, call.stdout, call.stderr, status.stdout]) {
      expect(output).not.toContain(accessToken);
      expect(output).not.toContain(refreshToken);
    }

    // A sign-in that fails (here: the answer is not to the host's request) keeps the one there was.
    const refusedLogin = await login(true);
    expect(refusedLogin.code).toBe(1);
    expect(refusedLogin.stderr).toContain('does not belong to this sign-in');
    expect(readFileSync(tokenFile, 'utf8')).toContain(accessToken);
    expect(readdirSync(join(tokenFile, '..'))).toEqual(['tokens.json']);

    const logout = await cli(['auth', 'logout', 'notes'], { cwd: directory, env: environment });
    expect(logout.stdout).toBe(`Signed out of "notes": its tokens are deleted (revoked at ${provider.issuer}).\n`);
    // Revoked at the authorization server too (RFC 7009): the refresh token no longer exists there.
    expect(await provider.provider.RefreshToken.find(refreshToken)).toBeUndefined();
    const refused = await cli(['call', 'notes', 'whoami'], { cwd: directory, env: environment });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the server needs you to sign in: run `mcpkit-host auth login notes`');
  });
});
