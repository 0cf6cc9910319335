/** A JSON-RPC result or error, read loosely. */
export type Answer = Record<string, unknown> & { requestState?: string };

/** The `_meta` a 2026-07-28 client sends with every request: protocol version, capabilities (elicitation), identity. */
export function modernMeta(clientName: string): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    'io.modelcontextprotocol/clientInfo': { name: clientName, version: '1' },
  };
}

let nextId = 1;

/** What {@link modernCall} returns. */
export interface ModernAnswer {
  status: number;
  message: { result?: Answer; error?: Answer } | undefined;
  headers: Headers;
}

/**
 * One modern-era POST with the standard headers; returns the HTTP status, the JSON-RPC message (from JSON or from the
 * SSE stream) and the response's headers.
 */
export async function modernCall(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { clientName?: string; headers?: Record<string, string> } = {},
): Promise<ModernAnswer> {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: { ...params, _meta: modernMeta(options.clientName ?? 'raw-modern') },
    }),
  });
  const text = await response.text();
  const message = response.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
        .find((candidate) => 'result' in candidate || 'error' in candidate)
    : text
      ? (JSON.parse(text) as Record<string, unknown>)
      : undefined;
  return {
    status: response.status,
    message: message as { result?: Answer; error?: Answer } | undefined,
    headers: response.headers,
  };
}
