import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Builds the transport for an HTTP server: Streamable HTTP, or the legacy HTTP+SSE transport of older servers. */
export function httpTransport(url: string, headers: Record<string, string>, kind: 'streamable' | 'sse'): Transport {
  const target = new URL(url);
  const requestInit = { headers };
  if (kind === 'sse') {
    // The legacy transport opens its event stream with EventSource, which takes headers through its own fetch.
    return new SSEClientTransport(target, {
      requestInit,
      eventSourceInit: {
        fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers ?? {}), ...headers } }),
      },
    });
  }
  return new StreamableHTTPClientTransport(target, { requestInit });
}
