import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';

/**
 * Builds the transport for an HTTP server: Streamable HTTP, or the legacy HTTP+SSE transport of older servers. The
 * config's headers go on every request (the event stream's too); `fetch` replaces the global fetch when given (the
 * Streamable HTTP transport of a server that may ask for OAuth gets an authorizing one).
 */
export function httpTransport(
  url: string,
  headers: Record<string, string>,
  kind: 'streamable' | 'sse',
  fetch?: typeof globalThis.fetch,
): Transport {
  const target = new URL(url);
  const requestInit = { headers };
  if (kind === 'sse') {
    const eventSourceFetch = fetch ?? globalThis.fetch;
    // The legacy transport opens its event stream with EventSource, which takes headers through its own fetch.
    return new SSEClientTransport(target, {
      requestInit,
      ...(fetch ? { fetch } : {}),
      eventSourceInit: {
        fetch: (input, init) => eventSourceFetch(input, { ...init, headers: { ...(init?.headers ?? {}), ...headers } }),
      },
    });
  }
  return new StreamableHTTPClientTransport(target, { requestInit, ...(fetch ? { fetch } : {}) });
}
