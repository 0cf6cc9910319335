import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { findConfigFile, loadConfigFile } from '../../config/load-config.js';
import type { ServerConfig } from '../../config/server-config.js';
import { openInBrowser } from '../../connection/oauth/authorization-page.js';
import { type Revocation, revokeTokens } from '../../connection/oauth/revoke-tokens.js';
import { TokenStore } from '../../connection/oauth/token-store.js';
import { ServerConnection } from '../../connection/server-connection.js';
import { HostError } from '../../errors.js';
import type { ParsedCommand } from '../arguments.js';
import { writeError, writeOut } from '../output.js';

const actions = ['login', 'logout', 'status'] as const;

/** The HTTP servers of the config named on the command line (every HTTP server for `status` without a name). */
async function httpServers(parsed: ParsedCommand, name: string | undefined): Promise<ServerConfig[]> {
  const config = await loadConfigFile(findConfigFile(parsed.options.config), {
    ...(name ? { only: [name] } : {}),
    inputValues: parsed.options.inputs,
  });
  const servers = config.servers.filter((server) => server.transport.kind === 'http');
  if (name && servers.length === 0) {
    throw new HostError('USAGE', `Server "${name}" is not an HTTP server; only HTTP servers sign in.`);
  }
  return servers;
}

const urlOf = (server: ServerConfig) => (server.transport.kind === 'http' ? server.transport.url : '');

/** A sign-in in a few words, never its tokens: who issued it, its scope, when it expires, whether it renews. */
async function describeSignIn(store: TokenStore, server: ServerConfig) {
  const saved = await store.server(urlOf(server));
  const issuer = saved?.latestIssuer;
  const credentials = issuer ? saved?.issuers[issuer] : undefined;
  const tokens = credentials?.tokens;
  return {
    server: server.name,
    url: urlOf(server),
    signedIn: tokens !== undefined,
    ...(issuer && tokens ? { issuer } : {}),
    ...(tokens?.scope ? { scope: tokens.scope } : {}),
    ...(credentials?.expiresAt ? { expiresAt: new Date(credentials.expiresAt).toISOString() } : {}),
    ...(tokens ? { renewable: tokens.refresh_token !== undefined } : {}),
  };
}

async function login(parsed: ParsedCommand, server: ServerConfig, store: TokenStore): Promise<number> {
  // A new sign-in, from scratch, in a token file of its own beside the user's (so it is private too): it replaces
  // the old one only once it succeeded, and a sign-in that fails leaves the old one as it was.
  await mkdir(dirname(store.file), { recursive: true, mode: 0o700 });
  const directory = await mkdtemp(join(dirname(store.file), '.login-'));
  const fresh = new TokenStore(join(directory, 'tokens.json'));
  const connection = new ServerConnection(server, {
    log: parsed.options.quiet ? () => {} : (name, line) => writeError(`[${name}] ${line}\n`),
    handlers: {},
    authorization: { store: fresh, interactive: { open: openInBrowser(writeError) } },
  });
  try {
    await connection.start();
    const credentials = await fresh.server(urlOf(server));
    if (credentials) await store.replace(urlOf(server), credentials);
  } finally {
    await connection.close();
    await rm(directory, { recursive: true, force: true });
  }
  const signIn = await describeSignIn(store, server);
  if (!signIn.signedIn) {
    writeOut(`Server "${server.name}" did not ask for a sign-in; nothing was saved.\n`);
    return 0;
  }
  if (parsed.options.json) writeOut(`${JSON.stringify(signIn, null, 2)}\n`);
  else
    writeOut(`Signed in to "${server.name}" at ${signIn.issuer}${signIn.scope ? ` (scope: ${signIn.scope})` : ''}.\n`);
  return 0;
}

const revocationNotes: Record<Revocation, string> = {
  revoked: 'revoked at',
  'not-supported': 'not revocable at',
  failed: 'could not be revoked at',
};

/** Revokes a server's tokens at each authorization server that issued some (RFC 7009), then deletes them here. */
async function logout(server: ServerConfig, store: TokenStore): Promise<number> {
  const kept = await store.server(urlOf(server));
  const notes: string[] = [];
  for (const [issuer, credentials] of Object.entries(kept?.issuers ?? {})) {
    if (!credentials.tokens) continue;
    notes.push(`${revocationNotes[await revokeTokens(issuer, credentials)]} ${issuer}`);
  }
  const forgotten = await store.forget(urlOf(server));
  if (!forgotten) {
    writeOut(`No sign-in was kept for "${server.name}".\n`);
    return 0;
  }
  const revoked = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  writeOut(`Signed out of "${server.name}": its tokens are deleted${revoked}.\n`);
  return 0;
}

/**
 * `auth login|logout|status SERVER`: signs in to an HTTP server protected by OAuth in the browser and keeps the tokens
 * in the user's token file, forgets them, or says what is kept (never the tokens themselves).
 */
export async function authCommand(parsed: ParsedCommand): Promise<number> {
  const [action, name] = parsed.positionals;
  if (!actions.includes(action as (typeof actions)[number])) {
    throw new HostError('USAGE', 'auth takes login SERVER, logout SERVER or status [SERVER].');
  }
  if (!name && action !== 'status') throw new HostError('USAGE', `auth ${action} needs the server's name.`);
  const store = new TokenStore();
  const servers = await httpServers(parsed, name);
  if (action === 'login') return login(parsed, servers[0] as ServerConfig, store);
  if (action === 'logout') return logout(servers[0] as ServerConfig, store);
  const signIns = await Promise.all(servers.map((server) => describeSignIn(store, server)));
  if (parsed.options.json) {
    writeOut(`${JSON.stringify(signIns, null, 2)}\n`);
    return 0;
  }
  const lines = signIns.map((signIn) =>
    signIn.signedIn
      ? `${signIn.server}: signed in at ${signIn.issuer}${signIn.scope ? `, scope ${signIn.scope}` : ''}${
          signIn.expiresAt ? `, access token until ${signIn.expiresAt}` : ''
        }${signIn.renewable ? ', renews itself' : ', no refresh token'}`
      : `${signIn.server}: not signed in`,
  );
  writeOut(lines.length > 0 ? `${lines.join('\n')}\n` : 'The config has no HTTP servers.\n');
  return 0;
}
