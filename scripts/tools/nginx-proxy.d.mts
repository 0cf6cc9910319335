/** A running reverse proxy: its base URL (no path), which proxy it is, and how to stop it. Each response names the
 * backend that served it in an X-Upstream-Address header (host:port). */
export interface ReverseProxy {
  url: string;
  kind: 'nginx' | 'node';
  close(): Promise<void>;
}
/** The nginx binary, installed first with apt-get when it is missing and we are root; undefined when it cannot be had. */
export declare function ensureNginx(): string | undefined;
/**
 * Starts a round-robin reverse proxy in front of `backends` (`host:port` or http URLs): nginx when it is installed
 * or can be installed, else a node:http stand-in. Resolves with its base URL, which of the two it is, and close().
 */
export declare function startReverseProxy(backends: string[]): Promise<ReverseProxy>;
/** Which proxy startReverseProxy will run: nginx if it can be had, else node (MCPKIT_PROXY=node forces node). */
export declare function reverseProxyKind(): 'nginx' | 'node';
