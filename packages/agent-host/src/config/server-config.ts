/** How to reach a server: a child process over stdio, or a URL. */
export type ServerTransportConfig =
  | {
      kind: 'stdio';
      /** The executable, looked up on PATH. */
      command: string;
      args: string[];
      /** Variables added to the host's environment for this server. */
      env: Record<string, string>;
      /** Working directory of the child (default: the host's). */
      cwd?: string;
    }
  | {
      kind: 'http';
      url: string;
      headers: Record<string, string>;
      /** `auto` tries Streamable HTTP and falls back to legacy SSE; `sse` goes straight to legacy SSE. */
      mode: 'auto' | 'streamable' | 'sse';
    };

import type { ServerApproval } from '../approvals/approval-policy.js';

/** Which of a server's tools the model may see (deny wins over allow), and which are always loaded. */
export interface ToolFilter {
  /** When given, only these tool names (original names, `*` as a wildcard). */
  allow?: string[];
  /** Tool names never offered (original names, `*` as a wildcard). */
  deny?: string[];
  /** Tool names (`*` as a wildcard) always offered with their full schema, even when tool search is on. */
  pin?: string[];
}

/**
 * A server's `oauth` block: how the host identifies itself to the server's authorization server (Claude Code's
 * `clientId` and `callbackPort`; VS Code keeps these outside the config).
 */
export interface OAuthSettings {
  /** A client id registered with the authorization server beforehand (used before any other identity). */
  clientId?: string;
  /** The secret of that client, for `client_secret_basic` or `client_secret_post` (give it as `${env:NAME}`). */
  clientSecret?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scopes?: string[];
  /** The loopback port of the redirect URI (a pre-registered client's redirect URI names one); default a free one. */
  redirectPort?: number;
  /** An HTTPS URL where the host's Client ID Metadata Document is published, used as client id where supported. */
  clientMetadataUrl?: string;
  /**
   * `authorization_code` (default): a person signs in in the browser. `client_credentials`: the host signs in as
   * the configured client itself, with no person and no browser (a machine's own access).
   */
  grantType?: 'authorization_code' | 'client_credentials';
  /** With `client_credentials`: a PKCS#8 PEM private key to sign client assertions with (`private_key_jwt`). */
  privateKey?: string;
  /** The algorithm of `privateKey` (default ES256). */
  signingAlgorithm?: string;
}

/** One server of a loaded config, normalized from whichever format it came in. */
export interface ServerConfig {
  /** The server's key in the config; also the prefix of its tools' model-facing names. */
  name: string;
  transport: ServerTransportConfig;
  tools: ToolFilter;
  /** Time limit of each tool call in milliseconds. */
  callTimeoutMs: number;
  /** Time limit for starting and initializing in milliseconds. */
  startupTimeoutMs: number;
  /** Absolute directories offered to the server as roots; absent means none (the host declares no roots). */
  roots?: string[];
  /** Whether its tools run without asking: one policy, or policies by tool name; absent means the default. */
  approve?: ServerApproval;
  /** How to sign in to an HTTP server protected by OAuth; absent: the defaults (a client registered on the fly). */
  oauth?: OAuthSettings;
  /** A disabled server is kept in the config but not started. */
  disabled: boolean;
}

/** A server of the config left out because a variable or input it uses has no value. */
export interface ConfigProblem {
  server: string;
  /** Names the file, the server, the field and the variable or input. */
  message: string;
}

/** A loaded config: the servers in file order, and where they came from. */
export interface HostConfig {
  servers: ServerConfig[];
  /** Servers left out of `servers`, each with why; absent or empty when every server could be read. */
  problems?: ConfigProblem[];
  /** The file the config was read from, when it came from a file. */
  source?: string;
}

/** Default time limit of one tool call. */
export const defaultCallTimeoutMs = 60_000;

/** Default time limit for a server to start and answer `initialize`. */
export const defaultStartupTimeoutMs = 30_000;
