import { request as httpRequest } from 'node:http';

/** A raw HTTP answer. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends one HTTP request with exactly the headers given (fetch would refuse to forge Host), and reads the whole
 * answer. `chunks` sends the body in pieces without a content-length, the way a streaming client does.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; chunks?: string[] } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers ?? {} },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    if (options.chunks) for (const chunk of options.chunks) request.write(chunk);
    request.end(options.body);
  });
}

/** The JSON-RPC initialize request as a string body. */
export const initializeBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** Headers a Streamable HTTP client sends with a JSON-RPC POST. */
export const jsonRpcHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The JSON-RPC messages carried by the `data:` lines of an SSE body (or the body itself when it is JSON). */
export function messagesOf(body: string): Record<string, unknown>[] {
  if (body.trimStart().startsWith('{')) return [JSON.parse(body) as Record<string, unknown>];
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

/** Opens a session's standalone GET event stream and keeps it open until `close()`, as a listening client does. */
export function openEventStream(url: string, sessionId: string): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, close: () => request.destroy() });
      },
    );
    request.on('error', reject);
    request.end();
  });
}
