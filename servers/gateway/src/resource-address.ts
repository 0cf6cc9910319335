/**
 * Resource URIs on the gateway: a backend's URI behind a scheme prefix naming its server, `<prefix>+<uri>`, e.g.
 * `files+file:///notes.txt` or `db+db://tables/{name}` for a template; the prefix is the server's name reduced to what
 * a URI scheme allows, unique among the servers.
 */
export class ResourceAddresses {
  private readonly prefixOf = new Map<string, string>();
  private readonly serverOf = new Map<string, string>();

  /** The prefix of `server`, assigned on first use. */
  prefix(server: string): string {
    const known = this.prefixOf.get(server);
    if (known !== undefined) return known;
    const base =
      server
        .toLowerCase()
        .replace(/[^a-z0-9.-]+/g, '-')
        .replace(/^[^a-z]+/, '') || 'server';
    let prefix = base;
    for (let index = 2; this.serverOf.has(prefix); index++) prefix = `${base}-${index}`;
    this.prefixOf.set(server, prefix);
    this.serverOf.set(prefix, server);
    return prefix;
  }

  /** The gateway's URI (or URI template) for a backend's. */
  outward(server: string, uri: string): string {
    return `${this.prefix(server)}+${uri}`;
  }

  /** The backend and its own URI for a gateway URI; undefined for a URI no backend owns. */
  inward(uri: string): { server: string; uri: string } | undefined {
    const plus = uri.indexOf('+');
    if (plus <= 0) return undefined;
    const server = this.serverOf.get(uri.slice(0, plus));
    return server === undefined ? undefined : { server, uri: uri.slice(plus + 1) };
  }
}
