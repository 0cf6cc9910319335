import type { ResourceServerOptions } from '../auth/resource-server.js';
import type { KitServer } from '../create-server.js';
import type { ConnectionGateOptions } from './connection-gate.js';

/** Options of `serveHttp`. */
export interface HttpOptions {
  /** Interface to bind; loopback by default. */
  host?: string;
  /** Port to bind; 0 picks a free one. */
  port?: number;
  /** Endpoint path (default `/mcp`). */
  path?: string;
  /** Require `Authorization: Bearer <token>`; a missing or wrong one gets 401. */
  token?: string;
  /**
   * Serve as an OAuth protected resource: publish RFC 9728 metadata naming the authorization server, and accept only
   * bearer tokens it issued for this server (JWTs checked against its keys, or introspection); 401 or 403 with a
   * `WWW-Authenticate` challenge otherwise. Tools with `scopes` need those too. Not with `token`.
   */
  auth?: ResourceServerOptions;
  /** Origins allowed besides loopback ones; a foreign Origin gets 403 (DNS rebinding protection). */
  allowedOrigins?: string[];
  /** Host header values allowed besides loopback ones when bound to loopback. */
  allowedHosts?: string[];
  /** Serve without sessions: every request stands alone (for several instances behind a load balancer). */
  stateless?: boolean;
  /** Largest request body accepted, in bytes (default 4 MiB); larger gets 413. */
  maxBodyBytes?: number;
  /**
   * Most sessions open at once (default 100). Past it a new session takes the place of the longest-idle one that has
   * been idle for `evictIdleAfterMs`; when there is none, the initialize gets 503 with `Retry-After`.
   */
  maxSessions?: number;
  /** A session idle this long is closed (default 30 minutes); one with a response still open is not idle. */
  sessionIdleMs?: number;
  /** A session idle this long may be closed for a new one when the cap is reached (default 60 s); never sooner. */
  evictIdleAfterMs?: number;
  /** Per-connection bounds on pipelined requests and unsent output, against clients that never read their answers. */
  connectionLimits?: ConnectionGateOptions;
  /** Close on SIGINT and SIGTERM (default false; the command-line helper turns it on). */
  handleSignals?: boolean;
}

/** A listening HTTP endpoint. */
export interface HttpListening {
  /** The endpoint URL, e.g. `http://127.0.0.1:8080/mcp`. */
  url: string;
  port: number;
  /** Number of open sessions. */
  readonly sessionCount: number;
  /** Stops listening, closes every session, then closes the server. */
  close(): Promise<void>;
  /** Resolves once closed. */
  closed: Promise<void>;
}

/**
 * Serves the server over Streamable HTTP. Binds loopback by default, checks Host and Origin (403 for foreign ones),
 * optionally requires a bearer token (401), caps request bodies (413), and bounds sessions by count and idle time.
 * Adds a listener for errors of `process.stderr` (once a process): the server goes on when the reader of its stderr
 * goes away, its log lines then going nowhere.
 */
export async function serveHttp(server: KitServer, options: HttpOptions = {}): Promise<HttpListening> {
  // Loaded on the first call: the HTTP endpoint, its guards and node:http weigh on the start-up of every stdio
  // server, which never needs them.
  const { startHttpEndpoint } = await import('./http-endpoint.js');
  return startHttpEndpoint(server, options);
}
