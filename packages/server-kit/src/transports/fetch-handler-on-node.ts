import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** The fetch-shaped face of the SDK's `createMcpHandler` that this adapter drives. */
export interface FetchHandler {
  fetch(request: Request, options?: { authInfo?: AuthInfo; parsedBody?: unknown }): Promise<Response>;
}

/** What answers one web request: a handler's `fetch`, or a session transport's `handleRequest`. */
export type FetchFunction = (
  request: Request,
  options?: { authInfo?: AuthInfo; parsedBody?: unknown },
) => Promise<Response>;

/**
 * Serves a fetch-shaped handler on a Node request whose body the caller has already read and parsed, as the SDK's
 * `toNodeHandler` does but cheaper per request: the web `Request` is built without a body (the handler is given the
 * parsed one and never reads the stream), and a JSON answer is written in one piece with its length instead of being
 * streamed chunk by chunk; event streams are still streamed, with backpressure. The request's `signal` aborts when
 * the client goes away before the answer is sent, so handlers in flight are cancelled.
 */
export function fetchHandlerOnNode(handler: FetchHandler, onerror: (error: Error) => void) {
  const fetch: FetchFunction = (request, options) => handler.fetch(request, options);
  return (request: IncomingMessage & { auth?: AuthInfo }, response: ServerResponse, parsedBody: unknown) =>
    answerOnNode(fetch, request, response, parsedBody, onerror);
}

/**
 * Answers one Node request with a web `Response` from `fetch`, as `fetchHandlerOnNode` describes. With
 * `withSignal: false` the web request gets no abort signal: for a handler that never reads it (the SDK's 2025-11-25
 * transports; the kit cancels their calls itself when the client leaves), which saves linking two signals per request.
 */
export async function answerOnNode(
  fetch: FetchFunction,
  request: IncomingMessage & { auth?: AuthInfo },
  response: ServerResponse,
  parsedBody: unknown,
  onerror: (error: Error) => void,
  withSignal = true,
): Promise<void> {
  let finished = false;
  const abort = new AbortController();
  response.once('close', () => {
    if (!finished) abort.abort();
  });
  if (response.destroyed) abort.abort();
  const headers: [string, string][] = [];
  for (const name in request.headers) {
    const value = request.headers[name];
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.push([name, item]);
    else headers.push([name, value]);
  }
  let answer: Response;
  try {
    const webRequest = new Request(`http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`, {
      method: request.method ?? 'POST',
      headers,
      ...(withSignal ? { signal: abort.signal } : {}),
    });
    answer = await fetch(webRequest, {
      ...(request.auth !== undefined ? { authInfo: request.auth } : {}),
      parsedBody,
    });
  } catch (error) {
    onerror(error instanceof Error ? error : new Error(String(error)));
    answer = Response.json(
      { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null },
      { status: 500 },
    );
  }
  const outgoing: Record<string, string> = {};
  for (const [name, value] of answer.headers) outgoing[name] = value;
  if (answer.body === null) {
    finished = true;
    response.writeHead(answer.status, outgoing);
    response.end();
    return;
  }
  if (!outgoing['content-type']?.startsWith('text/event-stream')) {
    // A whole answer (JSON): one write with its length, no chunked encoding.
    const body = Buffer.from(await answer.arrayBuffer());
    finished = true;
    outgoing['content-length'] = String(body.length);
    response.writeHead(answer.status, outgoing);
    response.end(body);
    return;
  }
  response.writeHead(answer.status, outgoing);
  response.flushHeaders();
  const reader = answer.body.getReader();
  const closed = new Promise<void>((resolve) =>
    abort.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  try {
    while (!abort.signal.aborted) {
      const next = await Promise.race([reader.read(), closed.then(() => undefined)]);
      if (next === undefined || next.done) break;
      if (!response.write(next.value)) {
        await Promise.race([new Promise<void>((resolve) => response.once('drain', () => resolve())), closed]);
      }
    }
  } catch {
    // The stream failed or the client left: end what was sent.
  } finally {
    if (abort.signal.aborted) reader.cancel().catch(() => {});
  }
  finished = true;
  response.end();
}
