import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** What answers one web request: a handler's `fetch`, or a session transport's `handleRequest`. */
export type FetchFunction = (
  request: Request,
  options?: { authInfo?: AuthInfo; parsedBody?: unknown },
) => Promise<Response>;

/** The fetch-shaped face of the SDK's `createMcpHandler` that this adapter drives. */
export interface FetchHandler {
  fetch: FetchFunction;
}

/**
 * How much of a web `Request` the handler needs: `full` (a real one, with an abort signal that fires when the client
 * leaves before the answer) or `headers` (method, URL and `headers.get` only: the SDK's 2025-11-25 transports read
 * nothing else, and the kit cancels their calls itself when the client leaves).
 */
export type WebRequestKind = 'full' | 'headers';

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

/** A real web `Request` (headers copied, no body) whose signal aborts when `abort` does. */
function fullRequest(request: IncomingMessage, signal: AbortSignal): Request {
  const headers: [string, string][] = [];
  for (const name in request.headers) {
    const value = request.headers[name];
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.push([name, item]);
    else headers.push([name, value]);
  }
  return new Request(`http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`, {
    method: request.method ?? 'POST',
    headers,
    signal,
  });
}

/** The parts of a web `Request` the 2025-11-25 transports read, over the Node request's own header table. */
function headersRequest(request: IncomingMessage): Request {
  const get = (name: string): string | null => {
    const value = request.headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return {
    method: request.method ?? 'POST',
    url: `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`,
    headers: { get, has: (name: string) => get(name) !== null },
  } as unknown as Request;
}

/** Waits until the response can take more, or is gone. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** Answers one Node request with a web `Response` from `fetch`, as `fetchHandlerOnNode` describes. */
export async function answerOnNode(
  fetch: FetchFunction,
  request: IncomingMessage & { auth?: AuthInfo },
  response: ServerResponse,
  parsedBody: unknown,
  onerror: (error: Error) => void,
  kind: WebRequestKind = 'full',
): Promise<void> {
  let answer: Response;
  let abort: AbortController | undefined;
  try {
    if (kind === 'full') {
      const controller = new AbortController();
      abort = controller;
      response.once('close', () => {
        if (!response.writableFinished) controller.abort();
      });
      if (response.destroyed) controller.abort();
    }
    const webRequest = abort ? fullRequest(request, abort.signal) : headersRequest(request);
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
    response.writeHead(answer.status, outgoing);
    response.end();
    return;
  }
  if (!outgoing['content-type']?.startsWith('text/event-stream')) {
    // A whole answer (JSON): one write with its length, no chunked encoding.
    const body = Buffer.from(await answer.arrayBuffer());
    outgoing['content-length'] = String(body.length);
    response.writeHead(answer.status, outgoing);
    response.end(body);
    return;
  }
  const reader = answer.body.getReader();
  // An event stream whose events are already on their way (a call that answers at once) and that ends within this turn
  // of the event loop goes out like a JSON answer: headers, events and length in one write. Otherwise the headers go
  // now, with whatever arrived, and the rest is streamed.
  const early: Uint8Array[] = [];
  let pending: ReturnType<typeof reader.read> | undefined = reader.read();
  const turn = new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)));
  try {
    for (;;) {
      const next = await Promise.race([pending, turn]);
      if (next === undefined) break;
      if (next.done) {
        pending = undefined;
        break;
      }
      early.push(next.value);
      pending = reader.read();
    }
  } catch {
    // The stream failed before its headers went out: send what it gave, as a stream that ended.
    pending = undefined;
  }
  if (pending === undefined) {
    const body = Buffer.concat(early);
    outgoing['content-length'] = String(body.length);
    response.writeHead(answer.status, outgoing);
    response.end(body);
    return;
  }
  response.writeHead(answer.status, outgoing);
  if (early.length === 0) response.flushHeaders();
  for (const chunk of early) response.write(chunk);
  // The client leaving cancels the stream, which ends the pending read.
  const stop = () => {
    reader.cancel().catch(() => {});
  };
  response.once('close', stop);
  if (response.destroyed) stop();
  try {
    for (;;) {
      const next = await (pending ?? reader.read());
      pending = undefined;
      if (next.done || response.destroyed) break;
      if (!response.write(next.value)) await drained(response);
    }
  } catch {
    // The stream failed or the client left: end what was sent.
  } finally {
    response.off('close', stop);
  }
  response.end();
}
