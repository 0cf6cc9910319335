import type { ServerResult } from '@modelcontextprotocol/server';
import type { Middleware, MiddlewareMethod, MiddlewareRequest } from './middleware.js';
import { type Outcome, outcomeOf } from './outcome.js';
import { argumentsSchemaOf, redactArguments, redacted } from './redact.js';

/** One audit record, as written (one JSON object a line). */
export interface AuditRecord {
  /** When the request arrived (ISO 8601). */
  time: string;
  method: MiddlewareMethod;
  /** The tool or prompt name, resource URI or completion reference. */
  target?: string;
  /** Who called: the caller key, and the token's subject, client id and scopes when there is a token (never the token). */
  caller: { key: string; subject?: string; clientId?: string; scopes?: string[]; sessionId?: string; client?: string };
  /** The arguments, with secrets redacted and long values cut. */
  arguments?: unknown;
  outcome: Outcome;
  /** The JSON-RPC error code, for the outcome `error`. */
  code?: number;
  /** How long the rest of the chain and the handler took, in milliseconds. */
  durationMs: number;
}

/** Options of {@link audit}. */
export interface AuditOptions {
  /** Where each line goes (default: stderr, since stdout is the protocol on stdio). */
  sink?(line: string, record: AuditRecord): void;
  /** The methods audited (default tools/call, resources/read, prompts/get). */
  methods?: readonly MiddlewareMethod[];
  /** Whether a property is a secret besides what its schema and name say, by its path from the arguments' root. */
  isSecret?(path: readonly string[]): boolean;
}

const defaultMethods: readonly MiddlewareMethod[] = ['tools/call', 'resources/read', 'prompts/get'];

function callerOf(request: MiddlewareRequest): AuditRecord['caller'] {
  const { caller } = request;
  return {
    key: caller.key,
    ...(caller.auth?.subject !== undefined ? { subject: caller.auth.subject } : {}),
    ...(caller.auth ? { clientId: caller.auth.clientId, scopes: caller.auth.scopes } : {}),
    ...(caller.sessionId ? { sessionId: caller.sessionId } : {}),
    ...(caller.client.name ? { client: caller.client.name } : {}),
  };
}

/** Replaces the properties `isSecret` names before the schema-aware redaction runs. */
function withoutSecrets(value: unknown, isSecret: (path: readonly string[]) => boolean, path: string[] = []): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, isSecret, path));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const at = [...path, key];
    copy[key] = isSecret(at) ? redacted : withoutSecrets(item, isSecret, at);
  }
  return copy;
}

/**
 * Writes one JSON line per request: when, what (method, target, arguments with secrets redacted by the tool's or
 * prompt's schema and by name), who (caller key, token subject, client id and scopes; never a token), the outcome and
 * how long it took. In the 2026-07-28 era a call that asks for input writes a line per round (`input-required`).
 */
export function audit(options: AuditOptions = {}): Middleware {
  const methods = new Set<string>(options.methods ?? defaultMethods);
  const sink = options.sink ?? ((line: string) => process.stderr.write(`${line}\n`));
  return async (request, next) => {
    if (!methods.has(request.method)) return next();
    const time = new Date().toISOString();
    const started = performance.now();
    let outcome: Outcome = 'error';
    let code: number | undefined;
    try {
      const result: ServerResult = await next();
      outcome = outcomeOf(result);
      return result;
    } catch (error) {
      const thrown = (error as { code?: unknown }).code;
      code = Number.isSafeInteger(thrown) ? (thrown as number) : -32603;
      throw error;
    } finally {
      const given = options.isSecret ? withoutSecrets(request.arguments, options.isSecret) : request.arguments;
      const record: AuditRecord = {
        time,
        method: request.method,
        ...(request.target !== undefined ? { target: redactArguments(request.target, undefined) as string } : {}),
        caller: callerOf(request),
        ...(given !== undefined ? { arguments: redactArguments(given, argumentsSchemaOf(request.definition)) } : {}),
        outcome,
        ...(code !== undefined ? { code } : {}),
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      };
      try {
        sink(JSON.stringify(record), record);
      } catch {
        // An audit sink that fails must not fail the call it audits.
      }
    }
  };
}
