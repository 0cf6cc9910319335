import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';

/** What the host keeps for one server at one authorization server. */
export interface StoredCredentials {
  /** The client identity the authorization server knows the host by (registered, metadata URL or configured). */
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the access token expires, in milliseconds since the epoch, when the server said. */
  expiresAt?: number;
  /** When these tokens were saved, in milliseconds since the epoch. */
  savedAt?: number;
}

/** The credentials of one server URL, by issuer, and which issuer signed the latest tokens. */
export interface ServerCredentials {
  latestIssuer?: string;
  issuers: Record<string, StoredCredentials>;
}

interface StoreFile {
  version: 1;
  servers: Record<string, ServerCredentials>;
}

/** The variable that moves the token file (tests, or a user who keeps it elsewhere). */
export const tokenFileVariable = 'MCPKIT_HOST_TOKEN_FILE';

/** Where the token file lives: the variable's path, else `mcpkit/tokens.json` in the platform's config directory. */
export function defaultTokenFile(environment: NodeJS.ProcessEnv = process.env): string {
  const configured = environment[tokenFileVariable];
  if (configured) return configured;
  const home = homedir();
  const base =
    process.platform === 'win32'
      ? (environment.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : process.platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : (environment.XDG_CONFIG_HOME ?? join(home, '.config'));
  return join(base, 'mcpkit', 'tokens.json');
}

/**
 * The host's OAuth tokens and client registrations, per (server URL, issuer), in one JSON file only the user can read
 * (0600 in a 0700 directory). Every change reads the file again and replaces it whole, so two hosts that sign in to
 * different servers at once keep both. Nothing here is ever logged.
 */
export class TokenStore {
  constructor(readonly file: string = defaultTokenFile()) {}

  private async load(): Promise<StoreFile> {
    try {
      const json = JSON.parse(await readFile(this.file, 'utf8')) as Partial<StoreFile>;
      return { version: 1, servers: json.servers ?? {} };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, servers: {} };
      throw error;
    }
  }

  private async write(content: StoreFile): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    // Written beside the file and renamed over it: a reader sees the old file or the new one, never half of one.
    const temporary = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, this.file);
  }

  /** The credentials kept for a server URL, by issuer. */
  async server(serverUrl: string): Promise<ServerCredentials | undefined> {
    return (await this.load()).servers[serverUrl];
  }

  /** The credentials of a server at one issuer, or at the issuer of its latest tokens when none is named. */
  async get(serverUrl: string, issuer?: string): Promise<StoredCredentials | undefined> {
    const server = await this.server(serverUrl);
    const key = issuer ?? server?.latestIssuer;
    return key === undefined ? undefined : server?.issuers[key];
  }

  /** Changes the credentials of a server at one issuer; `latest` marks that issuer as the one of the newest tokens. */
  async update(
    serverUrl: string,
    issuer: string,
    change: (current: StoredCredentials) => StoredCredentials,
    latest = false,
  ): Promise<void> {
    const content = await this.load();
    const server = content.servers[serverUrl] ?? { issuers: {} };
    server.issuers[issuer] = change(server.issuers[issuer] ?? {});
    if (latest) server.latestIssuer = issuer;
    content.servers[serverUrl] = server;
    await this.write(content);
  }

  /** Puts a server URL's credentials in place of what was kept for it (a new sign-in, finished elsewhere). */
  async replace(serverUrl: string, credentials: ServerCredentials): Promise<void> {
    const content = await this.load();
    content.servers[serverUrl] = credentials;
    await this.write(content);
  }

  /** Forgets everything kept for a server URL; says whether there was anything. */
  async forget(serverUrl: string): Promise<boolean> {
    const content = await this.load();
    if (!content.servers[serverUrl]) return false;
    delete content.servers[serverUrl];
    await this.write(content);
    return true;
  }
}
