import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createRequire } from 'node:module';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { ToolError } from '@mcpkit/server-kit';
import { Agent, buildConnector } from 'undici';

/** ipaddr.js is CommonJS without a default export in its types. */
const ipaddr = createRequire(import.meta.url)('ipaddr.js') as typeof import('ipaddr.js');

/** Which addresses a fetch may reach. */
export interface AddressPolicy {
  /** Lifts the rule against loopback, private, link-local and other non-public addresses (for intranet use). */
  allowPrivate: boolean;
}

/** Cloud metadata endpoints: refused even with `allowPrivate`, because they hand out credentials. */
const metadataAddresses = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);
const metadataHostnames = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);

/** Thrown when a fetch would reach an address the policy refuses. */
export class AddressRefusedError extends ToolError {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

/**
 * Why an IP address may not be reached, or undefined when it may. IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged
 * as the IPv4 address it carries; only globally routable unicast passes unless private addresses are allowed.
 */
export function addressRefusal(address: string, policy: AddressPolicy): string | undefined {
  let parsed: ReturnType<typeof ipaddr.process>;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return `${address} is not an IP address`;
  }
  const normal = parsed.toString();
  if (metadataAddresses.has(normal)) return `${normal} is a cloud metadata address`;
  const embedded = embeddedIpv4(parsed);
  if (embedded && metadataAddresses.has(embedded)) return `${normal} carries the cloud metadata address ${embedded}`;
  if (policy.allowPrivate) return undefined;
  const range = parsed.range();
  const compatible = ipv4Compatible(parsed);
  if (compatible) {
    const carried = ipaddr.parse(compatible).range();
    return carried === 'unicast' ? undefined : `${normal} carries the ${describeRange(carried)} address ${compatible}`;
  }
  if (range === 'unicast') return undefined;
  return `${normal} is a ${describeRange(range)} address`;
}

/**
 * The IPv4 address of an IPv4-compatible IPv6 address (`::a.b.c.d`, deprecated; not `::` or `::1`): ipaddr.js calls
 * them unicast, but a host with a 6-in-4 tunnel (sit0) sends them to the IPv4 address, so they are judged by it.
 */
function ipv4Compatible(parsed: ReturnType<typeof ipaddr.process>): string | undefined {
  if (parsed.kind() !== 'ipv6') return undefined;
  const parts = (parsed as import('ipaddr.js').IPv6).parts;
  if (parts.slice(0, 6).some((part) => part !== 0)) return undefined;
  const [high = 0, low = 0] = parts.slice(6);
  if (high === 0 && low <= 1) return undefined;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The IPv4 address that a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address reaches through its gateway, or that an
 * IPv4-compatible one carries.
 */
function embeddedIpv4(parsed: ReturnType<typeof ipaddr.process>): string | undefined {
  if (parsed.kind() !== 'ipv6') return undefined;
  const compatible = ipv4Compatible(parsed);
  if (compatible) return compatible;
  const parts = (parsed as import('ipaddr.js').IPv6).parts;
  const range = parsed.range();
  const pair = range === 'rfc6052' ? [parts[6], parts[7]] : range === '6to4' ? [parts[1], parts[2]] : undefined;
  if (!pair || pair[0] === undefined || pair[1] === undefined) return undefined;
  const [high, low] = pair;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function describeRange(range: string): string {
  const names: Record<string, string> = {
    loopback: 'loopback',
    private: 'private',
    linkLocal: 'link-local',
    uniqueLocal: 'private (unique local)',
    unspecified: 'unspecified',
    multicast: 'multicast',
    broadcast: 'broadcast',
    carrierGradeNat: 'shared (carrier-grade NAT)',
    reserved: 'reserved',
  };
  return names[range] ?? `non-public (${range})`;
}

/**
 * Checks a URL's host before any connection: numeric hosts of every form (the URL parser already turns
 * `http://2130706433/` and `http://0x7f.1/` into `127.0.0.1`) and well-known metadata names.
 */
export function assertHostAllowed(url: URL, policy: AddressPolicy): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const lower = host.toLowerCase().replace(/\.$/, '');
  if (metadataHostnames.has(lower)) throw refused(url, `${lower} is a cloud metadata host`);
  if (!policy.allowPrivate && (lower === 'localhost' || lower.endsWith('.localhost'))) {
    throw refused(url, `${lower} is a loopback name`);
  }
  if (isIP(host) || ipaddr.isValid(host)) {
    const reason = addressRefusal(host, policy);
    if (reason) throw refused(url, reason);
  }
}

function refused(url: URL | string, reason: string): AddressRefusedError {
  const origin = typeof url === 'string' ? url : url.origin;
  return new AddressRefusedError(
    `Refused to fetch ${origin}: ${reason}. fetch_url only reaches public addresses unless the server runs with --allow-private.`,
  );
}

/** A DNS lookup that fails when any address a name resolves to is refused (so a name cannot smuggle one in). */
export function guardedLookup(
  policy: AddressPolicy,
  resolve: LookupFunction = dnsLookup as LookupFunction,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = (Array.isArray(addresses) ? addresses : [{ address: addresses, family: 4 }]) as LookupAddress[];
      for (const { address } of list) {
        const reason = addressRefusal(address, policy);
        if (reason) return callback(refused(hostname, `it resolves to ${reason}`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * An undici dispatcher whose every connection is checked twice: names through the guarded lookup before
 * connecting, and the address the socket actually connected to afterwards (which also covers IP literals, which
 * skip the lookup, and DNS answers that change between a check and the connection).
 */
export function createGuardedDispatcher(
  policy: AddressPolicy,
  options: { connectTimeoutMs?: number; lookup?: LookupFunction } = {},
): Agent {
  const connect = buildConnector({
    timeout: options.connectTimeoutMs ?? 10_000,
    lookup: guardedLookup(policy, options.lookup),
  } as buildConnector.BuildOptions);
  return new Agent({
    connect(connectOptions, callback) {
      connect(connectOptions, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no socket'), null);
        const remote = (socket as Socket).remoteAddress;
        const reason = remote ? addressRefusal(remote, policy) : 'the connected address is unknown';
        if (reason) {
          socket.destroy();
          return callback(refused(`${connectOptions.protocol}//${connectOptions.hostname}`, reason), null);
        }
        callback(null, socket);
      });
    },
  });
}
