import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AuthInfo,
  isInitializeRequest,
  type WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { ResourceServerGate } from '../auth/resource-server.js';
import type { KitServer } from '../create-server.js';
import { KitError } from '../errors.js';
import { checkParamHeaders, type ParamHeaderMismatch } from '../param-headers.js';
import { cancelOnDisconnect } from './cancel-on-disconnect.js';
import { createConnectionGate } from './connection-gate.js';
import { answerOnNode, fetchHandlerOnNode } from './fetch-handler-on-node.js';
import { outliveClosedStderr } from './outlive-closed-stderr.js';
import { quickRoute } from './quick-route.js';
import { isAllowedHost, isAllowedOrigin, isLoopbackHost } from './request-guards.js';
import type { HttpListening, HttpOptions } from './serve-http.js';
import { SessionTable } from './session-table.js';

/** Sends a web `Response` (the SDK's OAuth challenges) on a Node response. */
async function sendWebResponse(response: ServerResponse, answer: Response): Promise<void> {
  if (response.headersSent) return;
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(await answer.text());
}

function sendJsonRpcError(response: ServerResponse, status: number, code: number, message: string, headers = {}) {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** 400 with -32020 (the revision's header mismatch), as the SDK answers a disagreeing standard header. */
function sendHeaderMismatch(response: ServerResponse, mismatch: ParamHeaderMismatch, id: unknown) {
  if (response.headersSent) return;
  response.writeHead(400, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: {
        code: -32020,
        message: `Bad Request: the request headers and body disagree: ${mismatch.sentence}.`,
        data: { mismatch: { header: mismatch.header, body: mismatch.sentence } },
      },
    }),
  );
}

/** A request the resource-server gate let through, with the verified token's information. */
type AuthenticatedRequest = IncomingMessage & { auth?: AuthInfo };

class BodyTooLargeError extends Error {}

/** Reads a request body up to `limit` bytes (events rather than an async iterator: cheaper per request). */
function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off('data', onData);
        request.off('end', onEnd);
        request.off('error', onError);
        // Nothing more is read: the answer (413) is sent and the connection is not reused.
        request.pause();
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      request.off('error', onError);
      resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      request.off('data', onData);
      request.off('end', onEnd);
      reject(error);
    };
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', onError);
  });
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The body of `serveHttp`, loaded on its first call (see serve-http.ts). */
export async function startHttpEndpoint(server: KitServer, options: HttpOptions): Promise<HttpListening> {
  outliveClosedStderr();
  // Loaded here rather than at the top: the HTTP transport, its web-stream adapters and node:http weigh on the
  // start-up time of every stdio server, which never needs them.
  const [
    { createServer: createHttpServer },
    {
      classifyInboundRequest,
      createMcpHandler,
      isJSONRPCNotification,
      isJSONRPCRequest,
      WebStandardStreamableHTTPServerTransport: StreamableHTTPServerTransport,
    },
  ] = await Promise.all([import('node:http'), import('@modelcontextprotocol/server')]);
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 100;
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60 * 1000;
  const sessions = new SessionTable<WebStandardStreamableHTTPServerTransport>({
    maxSessions,
    idleMs: sessionIdleMs,
    evictIdleAfterMs: options.evictIdleAfterMs ?? 60_000,
  });
  const loopbackOnly = isLoopbackHost(host);
  if (options.auth && options.token !== undefined) {
    throw new KitError('INVALID_OPTIONS', 'serveHttp takes token or auth, not both: auth replaces the static token.');
  }
  if (options.auth && !options.auth.audience && (host === '0.0.0.0' || host === '::')) {
    throw new KitError(
      'INVALID_OPTIONS',
      `Serving on ${host} with auth needs auth.audience: the public URL clients reach this server at, which tokens must name.`,
    );
  }
  let gate: ResourceServerGate | undefined;
  // Loaded only with auth: servers that check no tokens do not load the JWT library.
  const resourceServer = options.auth ? await import('../auth/resource-server.js') : undefined;
  // Which caller opened each session: a session id is no credential, so another caller's token cannot use it.
  const sessionOwners = new Map<string, string>();
  const ownerOf = (request: IncomingMessage) => {
    const auth = (request as AuthenticatedRequest).auth;
    return auth ? JSON.stringify([auth.extra?.issuer, auth.clientId, auth.extra?.subject]) : '';
  };
  if (!loopbackOnly && options.token === undefined) {
    // Not refused (a trusted network or a proxy in front may do the checking), but never silent.
    server.log.warning(
      `Serving on ${host}, which other machines can reach, without a bearer token: anyone who can connect can call every tool.`,
    );
  }

  if (options.stateless && server.requestStateKeyIsRandom) {
    server.log.warning(
      'No request-state key is configured (MCPKIT_REQUEST_STATE_KEY): a call that asks for input can only continue on this instance.',
    );
  }

  // The 2026-07-28 era: one SDK server per request, built from the kit's registry; nothing kept between requests.
  const modern = createMcpHandler((context) => server.factory(context, { register: false }), {
    legacy: 'reject',
    onerror: (error) => server.log.debug(`HTTP (2026-07-28): ${error.message}`),
  });
  const serveModern = fetchHandlerOnNode(modern, (error) => server.log.debug(`HTTP (2026-07-28): ${error.message}`));
  // Changes of the offer reach modern clients on their open subscriptions/listen streams.
  const removeNotifier = server.addNotifier(modern.notify);
  const isMessage = (body: unknown) => isJSONRPCRequest(body) || isJSONRPCNotification(body);
  const header = (request: IncomingMessage, name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };

  // SEP-2243: the SDK checks Mcp-Param-* headers only for its own McpServer; the kit's registry knows the schemas.
  const paramHeaderMismatch = (body: unknown, headerValue: (name: string) => string | undefined) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const { method, params } = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
    const declared = server.paramHeadersOf(params.name);
    return declared.length === 0 ? undefined : checkParamHeaders(declared, params.arguments, headerValue);
  };

  // A tools/call of a tool whose scopes the token lacks is refused before it runs, so the client can ask for them.
  const scopesMissing = (body: unknown, auth: AuthInfo | undefined) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
    const granted = new Set(auth?.scopes ?? []);
    const scopes = server.scopesOf(params.name).filter((scope) => !granted.has(scope));
    return scopes.length > 0 ? { scopes, tool: params.name } : undefined;
  };

  // The 2025-11-25 transports are the SDK's web-standard ones, answered through the kit's Node adapter as the modern
  // handler is (the SDK's Node transport wraps the same class in another web-request conversion per request). They
  // read only the method and `headers.get` of the web request, so they get those over the Node request's headers (no
  // `Request` built) and no signal: a session's calls are cancelled on disconnect by `cancelOnDisconnect`, a
  // stateless one's server is closed with its response.
  const legacyError = (error: Error) => server.log.debug(`HTTP (2025-11-25): ${error.message}`);
  const serveLegacy = (
    transport: WebStandardStreamableHTTPServerTransport,
    request: AuthenticatedRequest,
    response: ServerResponse,
    body: unknown,
  ) =>
    answerOnNode(
      (webRequest, requestOptions) => transport.handleRequest(webRequest, requestOptions),
      request,
      response,
      body,
      legacyError,
      'headers',
    );

  const handleStateless = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const session = await server.connect(transport);
    response.on('close', () => {
      session.close().catch(() => {});
    });
    await serveLegacy(transport, request, response, body);
  };

  const handleStateful = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport || (gate && sessionOwners.get(sessionId) !== ownerOf(request))) {
        return sendJsonRpcError(response, 404, -32001, 'Session not found: start a new session.');
      }
      cancelOnDisconnect(transport, response, body);
      await serveLegacy(transport, request, response, body);
      return;
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return sendJsonRpcError(response, 400, -32000, 'Bad request: no valid session id; send initialize first.');
    }
    // A place is held before the SDK sees the initialize, so that concurrent ones cannot push the count past the cap.
    if (!sessions.reserve()) {
      return sendJsonRpcError(
        response,
        503,
        -32000,
        `Server busy: it already serves ${maxSessions} sessions, all in use; retry in a moment.`,
        { 'retry-after': '1' },
      );
    }
    let added = false;
    const transport: WebStandardStreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        added = true;
        sessions.add(id, transport);
        if (gate) sessionOwners.set(id, ownerOf(request));
      },
      onsessionclosed: (id) => {
        sessions.forget(id);
        sessionOwners.delete(id);
      },
    });
    transport.onclose = () => {
      if (!transport.sessionId) return;
      sessions.forget(transport.sessionId);
      sessionOwners.delete(transport.sessionId);
    };
    try {
      await server.connect(transport);
      await serveLegacy(transport, request, response, body);
    } finally {
      if (!added) sessions.release();
    }
    // An initialize the SDK refused (wrong Accept or Content-Type, a bad batch) got no session id: without this the
    // kit's session would stay open with nothing able to reach or expire it.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await transport.close();
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const target = request.url ?? '/';
    // The usual request names the endpoint exactly; anything else is parsed as a URL.
    const pathname = target === path ? path : new URL(target, 'http://localhost').pathname;
    const metadataRequest = gate?.metadataPaths.includes(pathname) === true;
    if (pathname !== path && !metadataRequest)
      return sendJsonRpcError(response, 404, -32000, `Not found: the MCP endpoint is ${path}.`);
    if (loopbackOnly && !isAllowedHost(request.headers.host, options.allowedHosts ?? [])) {
      return sendJsonRpcError(
        response,
        403,
        -32000,
        'Forbidden: the Host header names a host this server does not serve.',
      );
    }
    if (gate && metadataRequest) {
      // Public and read by browser-based clients too, so any Origin may read it.
      response.writeHead(request.method === 'GET' ? 200 : 405, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
        ...(request.method === 'GET' ? {} : { allow: 'GET' }),
      });
      response.end(request.method === 'GET' ? JSON.stringify(gate.metadata) : '');
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(origin, options.allowedOrigins ?? [])) {
      return sendJsonRpcError(response, 403, -32000, 'Forbidden: requests from this Origin are not allowed.');
    }
    if (options.token !== undefined && !tokenMatches(request.headers.authorization, options.token)) {
      return sendJsonRpcError(response, 401, -32000, 'Unauthorized: a valid bearer token is required.', {
        'www-authenticate': 'Bearer realm="mcp", error="invalid_token"',
      });
    }
    if (options.auth && !gate) return sendJsonRpcError(response, 503, -32000, 'Starting: retry in a moment.');
    if (gate) {
      const verdict = await gate.authenticate(request.headers.authorization);
      if ('refusal' in verdict) return sendWebResponse(response, verdict.refusal);
      // Where the SDK's transports read it from, to hand it to handlers as ctx.http.authInfo.
      (request as AuthenticatedRequest).auth = verdict.auth;
    }
    // In use from the first byte: a session whose request is still sending its body is neither idle nor evictable.
    const sessionId = request.headers['mcp-session-id'];
    if (!options.stateless && typeof sessionId === 'string') {
      const done = sessions.use(sessionId);
      if (done) response.once('close', done);
    }
    let body: unknown;
    if (request.method === 'POST') {
      let raw: string;
      try {
        raw = await readBody(request, maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          // The rest of the body is not read: the connection closes after the answer.
          return sendJsonRpcError(
            response,
            413,
            -32000,
            `Request body too large: the limit is ${maxBodyBytes} bytes.`,
            {
              connection: 'close',
            },
          );
        }
        throw error;
      }
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJsonRpcError(response, 400, -32700, 'Parse error: the request body is not valid JSON.');
      }
    }
    // A 2025-11-25 request (initialize, a session id, GET/DELETE, a posted response) goes to the legacy path; the
    // rest to the modern handler, which also answers what is malformed for either era.
    // The common requests are routed without the SDK's schemas (the modern handler classifies its own again).
    const quick = quickRoute(request.method, body, header(request, 'mcp-protocol-version'), isMessage);
    const route =
      quick !== undefined
        ? { kind: quick }
        : classifyInboundRequest({
            httpMethod: request.method ?? 'GET',
            protocolVersionHeader: header(request, 'mcp-protocol-version'),
            mcpMethodHeader: header(request, 'mcp-method'),
            mcpNameHeader: header(request, 'mcp-name'),
            body,
          });
    const missingScopes = gate ? scopesMissing(body, (request as AuthenticatedRequest).auth) : undefined;
    if (gate && missingScopes)
      return sendWebResponse(response, gate.refuseScopes(missingScopes.scopes, missingScopes.tool));
    if (route.kind !== 'legacy') {
      const mismatch = paramHeaderMismatch(body, (name) => header(request, name));
      if (mismatch) return sendHeaderMismatch(response, mismatch, (body as { id?: unknown }).id);
      await serveModern(request, response, body);
    } else if (options.stateless) await handleStateless(request, response, body);
    else await handleStateful(request, response, body);
  };

  const admit = createConnectionGate(options.connectionLimits);
  const httpServer = createHttpServer((request, response) => {
    admit(request, response, () =>
      handle(request, response).catch((error: unknown) => {
        server.log.error('HTTP request failed', error);
        sendJsonRpcError(response, 500, -32603, 'Internal server error.');
      }),
    );
  });

  const sweeper = setInterval(() => sessions.sweep(), Math.min(sessionIdleMs, 60_000));
  sweeper.unref();

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });

  let finished: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    finished = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(sweeper);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      sessions.closeAll();
      httpServer.closeAllConnections();
      await stopped;
      removeNotifier();
      await modern.close();
      await server.close();
      finished();
    })();
    return closing;
  };
  const onSignal = () => {
    void close();
  };
  if (options.handleSignals) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }

  const { port } = httpServer.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  // Set in the same turn as the listen callback's: no request is handled before the gate exists.
  if (options.auth && resourceServer)
    gate = resourceServer.createResourceServerGate(options.auth, `http://${urlHost}:${port}${path}`);
  return {
    url: `http://${urlHost}:${port}${path}`,
    port,
    get sessionCount() {
      return sessions.size;
    },
    close,
    closed,
  };
}
