const loopbackNames = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** True for a loopback host name or address (the 127.0.0.0/8 range, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return loopbackNames.has(bare) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) || bare.endsWith('.localhost');
}

/** The host name of a Host header, without its port. */
function hostName(header: string): string {
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1);
  return header.split(':')[0] ?? '';
}

/**
 * True when a Host header may reach a loopback-bound server: loopback names, or names the operator allowed. This is
 * what stops DNS rebinding, where a hostile page's domain is made to resolve to 127.0.0.1.
 */
export function isAllowedHost(header: string | undefined, allowed: readonly string[]): boolean {
  if (!header) return false;
  const value = header.toLowerCase();
  const name = hostName(value);
  return isLoopbackHost(name) || allowed.some((entry) => entry.toLowerCase() === name || entry.toLowerCase() === value);
}

/** True when a browser Origin may call: a loopback origin, or one the operator allowed exactly. */
export function isAllowedOrigin(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}
